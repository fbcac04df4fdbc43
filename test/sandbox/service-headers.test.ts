import { describe, expect, it } from "vitest";
import { call, sandbox } from "./helpers.js";

describe("what every answer carries besides its body", () => {
  it("a request id of its own and, on repository paths, GitHub's media type", async () => {
    const sb = await sandbox();
    const answers = [
      await call(sb, "GET", "/repos/acme/api"),
      await call(sb, "GET", "/repos/acme/api"),
      await call(sb, "PATCH", "/repos/acme/api/hooks/2", { body: { active: "no" } }),
      await call(sb, "GET", "/repos/acme/api/nothing"),
    ];
    const ids = answers.map((answer) => answer.headers.get("x-github-request-id"));
    expect(new Set(ids).size).toBe(4);
    for (const answer of answers) {
      expect(answer.headers.get("x-github-media-type")).toBe("github.v3; format=json");
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    }
    const planning = await call(sb, "GET", "/api/v4/groups/1");
    expect(planning.headers.get("x-request-id")).toMatch(/\S/);
    expect(planning.headers.get("x-github-request-id")).toBeNull();
  });

  it("a 404 for a trailing slash, as GitHub answers (its troubleshooting guide)", async () => {
    const sb = await sandbox();
    expect((await call(sb, "GET", "/repos/acme/api/")).status).toBe(404);
    expect((await call(sb, "GET", "/repos/acme/api/hooks/")).status).toBe(404);
  });
});
