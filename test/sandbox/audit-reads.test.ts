import { describe, expect, it } from "vitest";
import { call, sandbox } from "./helpers.js";

describe("GET /user/migrations/{id}", () => {
  // @octokit/openapi: migrations/get-status-for-authenticated-user takes `exclude` as the
  // organization's status read does.
  it("omits repositories on exclude=repositories, as the organization's read does", async () => {
    const sb = await sandbox();
    const full = await call(sb, "GET", "/user/migrations/1");
    expect(full.body.repositories.map((repo: { full_name: string }) => repo.full_name)).toEqual([
      "octo-admin/dotfiles",
      "acme/web",
    ]);
    for (const query of ["exclude=repositories", "exclude[]=repositories"]) {
      const slim = await call(sb, "GET", `/user/migrations/1?${query}`);
      expect(slim.status).toBe(200);
      expect(slim.body.repositories).toBeUndefined();
      expect(slim.body).toMatchObject({ id: 1, state: "exported" });
    }
  });
});
