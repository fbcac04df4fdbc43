import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RecordedRequest, requestViolations } from "../../src/sandbox/index.js";
import { type Schema, violations } from "../../src/sandbox/core/openapi-check.js";
import { repoRoot } from "../helpers/cli.js";
import { call, protectionBody, sandbox } from "./helpers.js";

const PROTECTION = "PUT /repos/{owner}/{repo}/branches/{branch}/protection";
const HOOK_PATCH = "PATCH /repos/{owner}/{repo}/hooks/{hook_id}";
const HOOK_POST = "POST /repos/{owner}/{repo}/hooks";
const CONFIG_PATCH = "PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config";

/** GitHub's schemas as generated, before the spec's exceptions are laid over them. */
const published = JSON.parse(
  readFileSync(join(repoRoot, "src/sandbox/github/request-schemas.json"), "utf8"),
) as { operations: Record<string, { schema: Schema }> };

describe("onRequest records what clients send", () => {
  it("gives method, path, the service's operation and body of every request, refused ones too", async () => {
    const seen: RecordedRequest[] = [];
    const sb = await sandbox({ onRequest: (request) => seen.push(request) });
    await call(sb, "PATCH", "/repos/acme/api/hooks/1?x=1", { body: { active: false } });
    await call(sb, "PUT", "/repos/acme/api/branches/main/protection", { rawBody: "{bad" });
    await call(sb, "GET", "/repos/acme/api/hooks", { token: "no-such-token" });
    await call(sb, "POST", "/repos/acme/api/hooks", { body: { branch_filter: "*" } });
    await call(sb, "DELETE", "/api/v4/projects/1/boards/2");
    expect(seen).toEqual([
      {
        method: "PATCH",
        path: "/repos/acme/api/hooks/1?x=1",
        operation: HOOK_PATCH,
        body: { active: false },
      },
      {
        method: "PUT",
        path: "/repos/acme/api/branches/main/protection",
        operation: PROTECTION,
        body: "{bad",
      },
      { method: "GET", path: "/repos/acme/api/hooks", body: undefined },
      {
        method: "POST",
        path: "/repos/acme/api/hooks",
        operation: HOOK_POST,
        body: { branch_filter: "*" },
      },
      {
        method: "DELETE",
        path: "/api/v4/projects/1/boards/2",
        operation: "DELETE /api/v4/projects/{id}/boards/{board_id}",
        body: undefined,
      },
    ]);
  });

  it("records requests the secondary limit refuses before they run", async () => {
    const seen: RecordedRequest[] = [];
    const sb = await sandbox({
      maxConcurrentPerToken: 1,
      latencyMs: 100,
      onRequest: (request) => seen.push(request),
    });
    const answers = await Promise.all(
      [1, 2].map((id) =>
        call(sb, "PATCH", `/repos/acme/api/hooks/${id}`, { body: { active: true } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    expect(seen.map((request) => request.body)).toEqual([{ active: true }, { active: true }]);
  });

  it("lets a test find every body GitHub's schema refuses", async () => {
    const seen: RecordedRequest[] = [];
    const sb = await sandbox({ onRequest: (request) => seen.push(request) });
    await call(sb, "PATCH", "/repos/acme/api/hooks/2", { body: { config: { insecure_ssl: "1" } } });
    await call(sb, "POST", "/repos/acme/api/hooks", {
      body: { config: { url: "https://x.example/h" }, branch_filter: "*" },
    });
    const refused = seen
      .map((request) => requestViolations(request.operation ?? "", request.body))
      .filter((lines) => lines.length > 0);
    expect(refused).toEqual([['"branch_filter" is not a permitted key.']]);
    expect(sb.stats().invalid_request_bodies).toBe(1);
  });
});

describe("requestViolations and the sandbox's 422 follow GitHub's request schemas", () => {
  it("refuses unknown members where GitHub closes a body, and accepts them where it is open", () => {
    expect(
      requestViolations(HOOK_POST, { config: { url: "u" }, secret: "s", active: true }),
    ).toEqual(['"secret" is not a permitted key.']);
    expect(requestViolations(CONFIG_PATCH, { url: "u", extra: 1, more: 2 })).toEqual([
      '"extra", "more" are not permitted keys.',
    ]);
    expect(requestViolations(HOOK_PATCH, { frobnicate: 1, config: { other: 2 } })).toEqual([]);
    expect(requestViolations(PROTECTION, { ...protectionBody(), frobnicate: 1 })).toEqual([]);
  });

  it("checks types, nulls, enums, items and alternatives in GitHub's words", () => {
    expect(
      requestViolations("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
        state: "gone",
        body: null,
        labels: ["bug", 5],
        milestone: true,
      }),
    ).toEqual([
      `For 'properties/state', "gone" is not a member of ["open", "closed"].`,
      `No subschema in "oneOf" matched.`,
      `No subschema in "oneOf" matched.`,
    ]);
    expect(
      requestViolations(PROTECTION, {
        ...protectionBody(),
        required_pull_request_reviews: { dismissal_restrictions: { teams: null } },
        restrictions: { users: ["a"] },
      }),
    ).toEqual([`For 'properties/teams', nil is not an array.`, `"teams" wasn't supplied.`]);
    expect(
      requestViolations(CONFIG_PATCH, { insecure_ssl: 0, content_type: { a: [1, null] } }),
    ).toEqual([`For 'properties/content_type', {"a"=>[1, nil]} is not a string.`]);
    expect(requestViolations("GET /nothing", { anything: true })).toEqual([]);
  });

  it("keeps the spec's exceptions, and only those", () => {
    const hookFields = { authorization_header: "Bearer x", branch_filter: "main" };
    expect(requestViolations(HOOK_PATCH, hookFields)).toEqual([]);
    expect(requestViolations(HOOK_PATCH, { branch_filter: 1 })).toEqual([
      "For 'properties/branch_filter', 1 is not a string.",
    ]);
    expect(requestViolations(HOOK_POST, { config: { url: "u" }, ...hookFields })).toEqual([
      '"authorization_header", "branch_filter" are not permitted keys.',
    ]);

    const checksOnly = protectionBody({
      required_status_checks: { strict: true, checks: [{ context: "ci" }] },
    });
    expect(requestViolations(PROTECTION, checksOnly)).toEqual([]);
    const publishedProtection = published.operations[PROTECTION]?.schema ?? {};
    expect(violations(publishedProtection, checksOnly)).toEqual([
      { kind: "required", at: ["required_status_checks"], key: "contexts" },
    ]);
    const both = protectionBody({
      required_status_checks: { strict: true, contexts: ["ci"], checks: [{ context: "ci" }] },
    });
    expect(requestViolations(PROTECTION, both)).toEqual([
      'More than one subschema in "oneOf" matched.',
    ]);
    const neither = protectionBody({ required_status_checks: { strict: true } });
    expect(requestViolations(PROTECTION, neither)).toEqual(['No subschema in "oneOf" matched.']);
  });

  it("answers a refused body with GitHub's 422, in the spec's shape where the spec defines it", async () => {
    const sb = await sandbox();
    const spec = await call(sb, "PUT", "/repos/acme/web/branches/main/protection", {
      body: protectionBody({ required_status_checks: { strict: true } }),
    });
    expect([spec.status, spec.body]).toEqual([
      422,
      {
        message: 'Invalid request.\n\nNo subschema in "oneOf" matched.',
        documentation_url:
          "https://docs.github.com/rest/branches/branch-protection#update-branch-protection",
        errors: ['No subschema in "oneOf" matched.'],
      },
    ]);
    const github = await call(sb, "POST", "/repos/acme/api/issues", { body: { body: "x" } });
    expect([github.status, github.body]).toEqual([
      422,
      {
        message: 'Invalid request.\n\n"title" wasn\'t supplied.',
        documentation_url: "https://docs.github.com/rest/issues/issues#create-an-issue",
      },
    ]);
    const semantic = await call(sb, "PUT", "/repos/acme/web/branches/main/protection", {
      body: protectionBody({
        required_pull_request_reviews: { required_approving_review_count: 7 },
      }),
    });
    expect([semantic.status, semantic.body.message]).toEqual([422, "Validation Failed"]);
    expect(sb.stats().invalid_request_bodies).toBe(2);
    expect(sb.stats().mutations_applied).toBe(0);
  });

  it("checks access before the body, as GitHub answers 404 for what it hides", async () => {
    const sb = await sandbox();
    const hidden = await call(sb, "PATCH", "/repos/acme/nothing/hooks/1", {
      body: { config: "not an object" },
    });
    expect(hidden.status).toBe(404);
    expect(sb.stats().invalid_request_bodies).toBe(0);
  });
});
