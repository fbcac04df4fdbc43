import { describe, expect, it } from "vitest";
import { call, DEV, READER, sandbox } from "./helpers.js";

const HOOKS = "/repos/acme/api/hooks";

describe("repository hooks", () => {
  it("lists the demo hooks with secrets masked", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "GET", HOOKS);
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        id: 1,
        type: "Repository",
        url: "https://ci.acme.example/hooks/forge",
        content_type: "json",
        active: true,
        events: ["push", "pull_request"],
        branch_filter: "*",
        config: {
          url: "https://ci.acme.example/hooks/forge",
          content_type: "json",
          insecure_ssl: "0",
          secret: "********",
        },
        metadata: null,
        created_at: "2026-01-03T08:00:00Z",
        updated_at: "2026-01-03T08:00:00Z",
      },
      expect.objectContaining({
        id: 2,
        url: "https://chat.acme.example/notify",
        events: ["issues", "issue_comment"],
        config: {
          url: "https://chat.acme.example/notify",
          content_type: "json",
          insecure_ssl: "0",
        },
      }),
    ]);
    expect(JSON.stringify(body)).not.toContain("sandbox-webhook-secret");
    expect((await call(sb, "GET", `${HOOKS}/2`)).body.id).toBe(2);
  });

  it("needs admin rights to read hooks", async () => {
    const sb = await sandbox();
    expect((await call(sb, "GET", HOOKS, { token: DEV })).status).toBe(403);
    expect((await call(sb, "GET", HOOKS, { token: null })).status).toBe(401);
  });
});

describe("PATCH hook", () => {
  it("edits active, authorization_header, branch_filter and events, and merges config key by key", async () => {
    const sb = await sandbox({ now: () => Date.parse("2026-12-01T00:00:00Z") });
    const { status, body } = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: {
        active: false,
        authorization_header: "Bearer hidden",
        branch_filter: "main",
        events: ["push", "push", "release"],
        config: { content_type: "form", secret: "" },
      },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 1,
      active: false,
      authorization_header: "********",
      branch_filter: "main",
      events: ["push", "release"],
      url: "https://ci.acme.example/hooks/forge",
      content_type: "form",
      config: {
        url: "https://ci.acme.example/hooks/forge",
        content_type: "form",
        insecure_ssl: "0",
      },
      created_at: "2026-01-03T08:00:00Z",
      updated_at: "2026-12-01T00:00:00Z",
    });
    expect(body.config.secret).toBeUndefined();
    expect((await call(sb, "GET", `${HOOKS}/1`)).body).toEqual(body);
    expect(JSON.stringify(body)).not.toContain("hidden");
  });

  it("keeps fields that are not sent", async () => {
    const sb = await sandbox();
    const before = (await call(sb, "GET", `${HOOKS}/1`)).body;
    const { body } = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: { config: { insecure_ssl: "1" } },
    });
    expect(body).toEqual({
      ...before,
      config: { ...before.config, insecure_ssl: "1" },
      updated_at: body.updated_at,
    });
  });

  it("answers an unknown hook with the hook-family 404 body", async () => {
    const sb = await sandbox();
    for (const id of ["99", "abc"]) {
      const { status, body } = await call(sb, "PATCH", `${HOOKS}/${id}`, {
        body: { active: false },
      });
      expect(status).toBe(404);
      expect(body).toEqual({
        message: "Not Found",
        errors: [`Hook ${id} not found on acme/api`],
        url: `${sb.url}${HOOKS}/${id}`,
      });
    }
  });

  it("refuses wrong types, a removed or duplicate url and an unknown content type with 422", async () => {
    const sb = await sandbox();
    const cases: [unknown, string][] = [
      [{ active: "no" }, "active: expected a boolean"],
      [{ events: "push" }, "events: expected an array of strings"],
      [{ config: { url: 5 } }, "config.url: expected a string"],
      [{ config: [] }, "config: expected an object of strings"],
      [{ config: { url: "" } }, "config.url: is required"],
      [{ config: { url: "ftp://x" } }, "config.url: 'ftp://x' is not an http(s) URL"],
      [
        { config: { url: "https://chat.acme.example/notify" } },
        "Hook already exists on this repository",
      ],
      [{ config: { content_type: "xml" } }, "config.content_type: must be json or form, got 'xml'"],
    ];
    for (const [body, error] of cases) {
      const answer = await call(sb, "PATCH", `${HOOKS}/1`, { body });
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toEqual([error]);
    }
    expect(sb.stats().mutations_applied).toBe(0);
  });

  it("needs admin rights", async () => {
    const sb = await sandbox();
    const answer = await call(sb, "PATCH", `${HOOKS}/1`, {
      token: READER,
      body: { active: false },
    });
    expect(answer.status).toBe(403);
  });
});

describe("POST and DELETE hook", () => {
  it("creates a hook with defaults (201) and deletes it (204)", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", HOOKS, {
      body: { config: { url: "https://new.acme.example/h", secret: "s3cret" } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 3,
      active: true,
      events: ["push"],
      branch_filter: "*",
      content_type: "json",
      config: { url: "https://new.acme.example/h", secret: "********" },
    });
    const duplicate = await call(sb, "POST", HOOKS, {
      body: { config: { url: "https://new.acme.example/h" } },
    });
    expect(duplicate.status).toBe(422);
    const missingUrl = await call(sb, "POST", HOOKS, { body: { events: ["push"] } });
    expect(missingUrl.body.errors).toEqual(["config.url: is required"]);
    expect((await call(sb, "DELETE", `${HOOKS}/3`)).status).toBe(204);
    expect((await call(sb, "GET", `${HOOKS}/3`)).status).toBe(404);
    expect((await call(sb, "DELETE", `${HOOKS}/3`)).body.errors).toEqual([
      "Hook 3 not found on acme/api",
    ]);
    expect((await call(sb, "GET", HOOKS)).body).toHaveLength(2);
  });
});
