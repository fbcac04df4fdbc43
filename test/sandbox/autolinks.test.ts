import { describe, expect, it } from "vitest";
import { call, READER, sandbox } from "./helpers.js";
import { check, responseSchema } from "./openapi-check.js";

const AUTOLINKS = "/repos/acme/api/autolinks";

describe("autolinks", () => {
  it("are listed, created (201 with Location) and deleted in GitHub's shapes", async () => {
    const sb = await sandbox();
    const listed = await call(sb, "GET", AUTOLINKS);
    expect(check(responseSchema("/repos/{owner}/{repo}/autolinks", "get"), listed.body)).toEqual(
      [],
    );
    expect(listed.body).toMatchObject([{ id: 1, key_prefix: "JIRA-", is_alphanumeric: false }]);
    const created = await call(sb, "POST", AUTOLINKS, {
      body: { key_prefix: "TICKET#", url_template: "https://t.example/<num>" },
    });
    expect(created.status).toBe(201);
    expect(
      check(responseSchema("/repos/{owner}/{repo}/autolinks", "post", "201"), created.body),
    ).toEqual([]);
    expect(created.body.is_alphanumeric).toBe(true);
    expect(created.headers.get("location")).toBe(`${sb.url}${AUTOLINKS}/${created.body.id}`);
    expect((await call(sb, "DELETE", `${AUTOLINKS}/${created.body.id}`)).status).toBe(204);
    expect((await call(sb, "GET", `${AUTOLINKS}/${created.body.id}`)).status).toBe(404);
  });

  it("refuse a prefix in use and GitHub's rules for prefixes and URLs with 422", async () => {
    const sb = await sandbox();
    const twice = await call(sb, "POST", AUTOLINKS, {
      body: { key_prefix: "JIRA-", url_template: "https://other.example/<num>" },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([
      { resource: "KeyLink", code: "already_exists", field: "key_prefix" },
    ]);
    expect(
      check(responseSchema("/repos/{owner}/{repo}/autolinks", "post", "422"), twice.body),
    ).toEqual([]);
    const bad = await call(sb, "POST", AUTOLINKS, {
      body: { key_prefix: "PTFY25 ", url_template: "https://t.example/ticket" },
    });
    expect(bad.body.errors.map((error: { message: string }) => error.message)).toEqual([
      "key_prefix must only contain letters, numbers, or .-_+=:/#",
      "url_template must contain <num>",
    ]);
  });

  it("are for administrators only", async () => {
    const sb = await sandbox();
    expect((await call(sb, "GET", AUTOLINKS, { token: READER })).status).toBe(403);
  });
});
