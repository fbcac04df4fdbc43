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
    expect((await call(sb, "GET", HOOKS, { token: null })).status).toBe(404);
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

  it("keeps fields that are not sent, but a config sent without the secret removes it", async () => {
    const sb = await sandbox();
    const before = (await call(sb, "GET", `${HOOKS}/1`)).body;
    const { body } = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: { config: { insecure_ssl: "1" } },
    });
    const { secret, ...kept } = before.config;
    expect(secret).toBe("********");
    expect(body).toEqual({
      ...before,
      config: { ...kept, insecure_ssl: "1" },
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
      [{ active: "no" }, `For 'properties/active', "no" is not a boolean.`],
      [{ events: "push" }, `For 'properties/events', "push" is not an array.`],
      [{ config: { url: 5 } }, "For 'properties/url', 5 is not a string."],
      [{ config: [] }, "For 'properties/config', [] is not an object."],
      [{ config: { url: "" } }, "config.url: is required"],
      [{ config: { url: "ftp://x" } }, "config.url: 'ftp://x' is not an http(s) URL"],
      [
        { config: { url: "https://chat.acme.example/notify" }, events: ["push", "issues"] },
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
    expect(sb.stats().invalid_request_bodies).toBe(4);
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
      content_type: "form",
      config: {
        url: "https://new.acme.example/h",
        content_type: "form",
        insecure_ssl: "0",
        secret: "********",
      },
    });
    const duplicate = await call(sb, "POST", HOOKS, {
      body: { config: { url: "https://new.acme.example/h" } },
    });
    expect(duplicate.status).toBe(422);
    const missingUrl = await call(sb, "POST", HOOKS, { body: { events: ["push"] } });
    // POST is GitHub's operation only: its 422 lists errors as objects (its Validation Error).
    expect(missingUrl.body.errors).toEqual([
      { resource: "Hook", code: "custom", message: "config.url: is required" },
    ]);
    expect((await call(sb, "DELETE", `${HOOKS}/3`)).status).toBe(204);
    expect((await call(sb, "GET", `${HOOKS}/3`)).status).toBe(404);
    expect((await call(sb, "DELETE", `${HOOKS}/3`)).body.errors).toEqual([
      "Hook 3 not found on acme/api",
    ]);
    expect((await call(sb, "GET", HOOKS)).body).toHaveLength(2);
  });
});

describe("the hook's secret, as GitHub keeps it", () => {
  it("survives a PATCH without config (PyGithub/PyGithub#2906)", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: { active: false, events: ["push"], branch_filter: "main" },
    });
    expect(status).toBe(200);
    expect(body.config.secret).toBe("********");
    expect((await call(sb, "GET", `${HOOKS}/1/config`)).body.secret).toBe("********");
  });

  it("is removed by a PATCH whose config does not send it, and set by one that does", async () => {
    const sb = await sandbox();
    const removed = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: { config: { content_type: "form" } },
    });
    expect(removed.body.config).toEqual({
      url: "https://ci.acme.example/hooks/forge",
      content_type: "form",
      insecure_ssl: "0",
    });
    const set = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: { config: { content_type: "json", secret: "new-secret" } },
    });
    expect(set.body.config.secret).toBe("********");
    expect(JSON.stringify(set.body)).not.toContain("new-secret");
  });

  it("survives PATCH …/config unless the secret is sent", async () => {
    const sb = await sandbox({ now: () => Date.parse("2026-12-01T00:00:00Z") });
    const { status, body } = await call(sb, "PATCH", `${HOOKS}/1/config`, {
      body: { content_type: "form", insecure_ssl: 1 },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      url: "https://ci.acme.example/hooks/forge",
      content_type: "form",
      insecure_ssl: "1",
      secret: "********",
    });
    const read = (await call(sb, "GET", `${HOOKS}/1`)).body;
    expect(read).toMatchObject({
      content_type: "form",
      config: body,
      events: ["push", "pull_request"],
      updated_at: "2026-12-01T00:00:00Z",
    });
    const cleared = await call(sb, "PATCH", `${HOOKS}/1/config`, { body: { secret: "" } });
    expect(cleared.body.secret).toBeUndefined();
  });
});

describe("GET and PATCH …/hooks/{id}/config", () => {
  it("reads GitHub's webhook-config shape, secret masked, for admins only", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "GET", `${HOOKS}/1/config`);
    expect(status).toBe(200);
    expect(body).toEqual({
      url: "https://ci.acme.example/hooks/forge",
      content_type: "json",
      insecure_ssl: "0",
      secret: "********",
    });
    expect((await call(sb, "GET", `${HOOKS}/1/config`, { token: DEV })).status).toBe(403);
    expect((await call(sb, "GET", `${HOOKS}/9/config`)).body.errors).toEqual([
      "Hook 9 not found on acme/api",
    ]);
  });

  it("refuses keys outside GitHub's closed config schema and wrong types, changing nothing", async () => {
    const sb = await sandbox();
    const before = (await call(sb, "GET", `${HOOKS}/1`)).body;
    const unknown = await call(sb, "PATCH", `${HOOKS}/1/config`, {
      body: { content_type: "form", forgeplan_secret_version: "2" },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      message: 'Invalid request.\n\n"forgeplan_secret_version" is not a permitted key.',
      documentation_url:
        "https://docs.github.com/rest/repos/webhooks#update-a-webhook-configuration-for-a-repository",
    });
    const wrong = await call(sb, "PATCH", `${HOOKS}/1/config`, {
      body: { insecure_ssl: true, url: null },
    });
    expect(wrong.body.message).toBe(
      [
        "Invalid request.",
        "",
        `No subschema in "oneOf" matched.`,
        `For 'properties/url', nil is not a string.`,
      ].join("\n"),
    );
    const removedUrl = await call(sb, "PATCH", `${HOOKS}/1/config`, { body: { url: "" } });
    expect([removedUrl.status, removedUrl.body.errors]).toEqual([
      422,
      [{ resource: "Hook", code: "custom", message: "config.url: is required" }],
    ]);
    expect((await call(sb, "GET", `${HOOKS}/1`)).body).toEqual(before);
    expect(sb.stats()).toMatchObject({ invalid_request_bodies: 2, mutations_applied: 0 });
  });
});

describe("hook config keeps only the keys GitHub defines", () => {
  it("accepts and drops other keys where GitHub's schema is open (POST, PATCH)", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", HOOKS, {
      body: {
        name: "web",
        config: { url: "https://new.acme.example/h", forgeplan_secret_version: "1", x: "y" },
      },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.config).sort()).toEqual([
      "content_type",
      "insecure_ssl",
      "url",
    ]);
    const patched = await call(sb, "PATCH", `${HOOKS}/2`, {
      body: { config: { forgeplan_secret_version: "2", insecure_ssl: 1 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.config).toEqual({
      url: "https://chat.acme.example/notify",
      content_type: "json",
      insecure_ssl: "1",
    });
  });

  it("refuses the spec's PATCH-only fields and other unknown members on POST", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "POST", HOOKS, {
      body: {
        config: { url: "https://new.acme.example/h" },
        branch_filter: "*",
        authorization_header: "Bearer x",
      },
    });
    expect(status).toBe(422);
    expect(body).toEqual({
      message:
        'Invalid request.\n\n"authorization_header", "branch_filter" are not permitted keys.',
      documentation_url: "https://docs.github.com/rest/repos/webhooks#create-a-repository-webhook",
    });
    const named = await call(sb, "POST", HOOKS, {
      body: { name: "slack", config: { url: "https://new.acme.example/h" } },
    });
    expect([named.status, named.body.errors]).toEqual([
      422,
      [{ resource: "Hook", code: "custom", message: "name: only 'web' is accepted, got 'slack'" }],
    ]);
    expect((await call(sb, "GET", HOOKS)).body).toHaveLength(2);
  });
});

describe("events on PATCH", () => {
  it("takes GitHub's add_events and remove_events, after events", async () => {
    const sb = await sandbox();
    const added = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: { add_events: ["release", "push"], remove_events: ["pull_request"] },
    });
    expect(added.body.events).toEqual(["push", "release"]);
    const replaced = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: { events: ["issues"], add_events: ["push"], remove_events: ["issues"] },
    });
    expect(replaced.body.events).toEqual(["push"]);
    expect(replaced.body.config.secret).toBe("********");
  });

  it("checks the spec's own PATCH fields by type", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "PATCH", `${HOOKS}/1`, {
      body: { authorization_header: 5, branch_filter: ["main"], remove_events: "push" },
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual([
      "For 'properties/authorization_header', 5 is not a string.",
      `For 'properties/branch_filter', ["main"] is not a string.`,
      `For 'properties/remove_events', "push" is not an array.`,
    ]);
  });
});

describe("hooks sharing a URL", () => {
  const url = "https://chat.acme.example/notify";

  it("are accepted while their events do not overlap, as GitHub's POST documents", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", HOOKS, {
      body: { config: { url, secret: "shared-secret" }, events: ["push", "release"] },
    });
    expect([created.status, created.body.events]).toEqual([201, ["push", "release"]]);
    const moved = await call(sb, "PATCH", `${HOOKS}/1/config`, { body: { url } });
    expect([moved.status, moved.body.secret]).toEqual([422, undefined]);
    const disjoint = await call(sb, "PATCH", `${HOOKS}/1`, { body: { events: ["deployment"] } });
    expect(disjoint.status).toBe(200);
    const joined = await call(sb, "PATCH", `${HOOKS}/1/config`, { body: { url } });
    expect([joined.status, joined.body.secret]).toEqual([200, "********"]);
    const listed = (await call(sb, "GET", HOOKS)).body as Array<{ id: number; url: string }>;
    expect(listed.map((hook) => [hook.id, hook.url])).toEqual([
      [1, url],
      [2, url],
      [3, url],
    ]);
    expect((await call(sb, "GET", `${HOOKS}/3`)).body.config.secret).toBe("********");
  });

  it("are refused with GitHub's 422 once their events overlap, * overlapping every event", async () => {
    const sb = await sandbox();
    const refusals: [string, string, unknown][] = [
      ["POST", HOOKS, { config: { url }, events: ["release", "issue_comment"] }],
      ["POST", HOOKS, { config: { url }, events: ["*"] }],
      ["PATCH", `${HOOKS}/1`, { config: { url, content_type: "json" }, events: ["issues"] }],
      ["PATCH", `${HOOKS}/1`, { config: { url, content_type: "json" }, events: ["*"] }],
    ];
    for (const [method, path, body] of refusals) {
      const answer = await call(sb, method, path, { body });
      expect(answer.status).toBe(422);
      expect(JSON.stringify(answer.body.errors)).toContain(
        "Hook already exists on this repository",
      );
    }
    const allEvents = await call(sb, "POST", HOOKS, {
      body: { config: { url: "https://new.acme.example/h" }, events: ["*"] },
    });
    expect(allEvents.status).toBe(201);
    const beside = await call(sb, "POST", HOOKS, {
      body: { config: { url: "https://new.acme.example/h" }, events: ["push"] },
    });
    expect(beside.status).toBe(422);
    // Events added with GitHub's add_events count as well.
    const added = await call(sb, "PATCH", `${HOOKS}/2`, { body: { add_events: ["push"] } });
    expect(added.status).toBe(200);
    const moved = await call(sb, "PATCH", `${HOOKS}/1/config`, { body: { url } });
    expect(moved.status).toBe(422);
    expect((await call(sb, "GET", HOOKS)).body).toHaveLength(3);
  });
});
