import { describe, expect, it } from "vitest";
import { call, protectionBody, sandbox } from "./helpers.js";
import { check, github, responseSchema } from "./openapi-check.js";

const PROTECTION = "/repos/{owner}/{repo}/branches/{branch}/protection";

const fullProtection = {
  required_status_checks: {
    strict: true,
    checks: [{ context: "ci/build" }, { context: "lint", app_id: -1 }],
  },
  enforce_admins: true,
  required_pull_request_reviews: {
    dismissal_restrictions: { users: ["octo-dev"], teams: ["platform"], apps: ["ci-bot"] },
    dismiss_stale_reviews: true,
    require_code_owner_reviews: true,
    required_approving_review_count: 2,
    require_last_push_approval: true,
    bypass_pull_request_allowances: {
      users: ["octo-admin"],
      teams: ["platform"],
      apps: ["ci-bot"],
    },
  },
  restrictions: { users: ["octo-dev"], teams: ["platform"], apps: ["ci-bot"] },
  required_linear_history: true,
  allow_force_pushes: false,
  allow_deletions: false,
  block_creations: true,
  required_conversation_resolution: true,
  lock_branch: false,
  allow_fork_syncing: false,
};

describe("responses shared with GitHub validate against its published OpenAPI schemas", () => {
  it("PUT and GET branch protection", async () => {
    const sb = await sandbox();
    const path = "/repos/acme/api/branches/main/protection";
    const put = await call(sb, "PUT", path, { body: fullProtection });
    expect(put.status).toBe(200);
    expect(check(responseSchema(PROTECTION, "put"), put.body)).toEqual([]);
    const get = await call(sb, "GET", path);
    expect(check(responseSchema(PROTECTION, "get"), get.body)).toEqual([]);
    const demo = await sandbox();
    expect(check(responseSchema(PROTECTION, "get"), (await call(demo, "GET", path)).body)).toEqual(
      [],
    );
  });

  it("repository invitations", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/repos/acme/api/invitations");
    expect(check(responseSchema("/repos/{owner}/{repo}/invitations", "get"), body)).toEqual([]);
  });

  it("gists, own and public", async () => {
    const sb = await sandbox();
    const schema = responseSchema("/gists", "get");
    expect(check(schema, (await call(sb, "GET", "/gists")).body)).toEqual([]);
    expect(check(schema, (await call(sb, "GET", "/gists", { token: null })).body)).toEqual([]);
  });

  it("webhook config, read and edited", async () => {
    const sb = await sandbox();
    const path = "/repos/{owner}/{repo}/hooks/{hook_id}/config";
    const read = await call(sb, "GET", "/repos/acme/api/hooks/1/config");
    expect(check(responseSchema(path, "get"), read.body)).toEqual([]);
    const edited = await call(sb, "PATCH", "/repos/acme/api/hooks/2/config", {
      body: { insecure_ssl: 1 },
    });
    expect(check(responseSchema(path, "patch"), edited.body)).toEqual([]);
  });

  it("422 bodies: GitHub's Validation Error, and the spec's Validation Error Simple", async () => {
    const sb = await sandbox();
    const duplicate = await call(sb, "POST", "/repos/acme/api/hooks", {
      body: { config: { url: "https://chat.acme.example/notify" } },
    });
    expect(duplicate.status).toBe(422);
    expect(
      check(responseSchema("/repos/{owner}/{repo}/hooks", "post", "422"), duplicate.body),
    ).toEqual([]);
    const count = await call(sb, "PUT", "/repos/acme/web/branches/main/protection", {
      body: protectionBody({
        required_pull_request_reviews: { required_approving_review_count: 7 },
      }),
    });
    expect(count.status).toBe(422);
    expect(check(responseSchema(PROTECTION, "put", "422"), count.body)).toEqual([]);
  });

  it("rate limit", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/rate_limit");
    expect(check(responseSchema("/rate_limit", "get"), body)).toEqual([]);
  });

  it("migrations", async () => {
    const sb = await sandbox();
    const repos = await call(sb, "GET", "/user/migrations/1/repositories");
    const reposSchema = responseSchema("/user/migrations/{migration_id}/repositories", "get");
    expect(check(reposSchema, repos.body)).toEqual([]);
    const user = await call(sb, "GET", "/user/migrations/1");
    expect(check(responseSchema("/user/migrations/{migration_id}", "get"), user.body)).toEqual([]);
    const org = await call(sb, "GET", "/orgs/acme/migrations/2");
    const orgSchema = responseSchema("/orgs/{org}/migrations/{migration_id}", "get");
    expect(check(orgSchema, org.body)).toEqual([]);
  });
});

describe("where the spec deliberately differs from GitHub, the spec wins", () => {
  it("users carry the spec's avatar_ref_id instead of GitHub's gravatar_id", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/repos/acme/api/invitations");
    expect(body[0].invitee.avatar_ref_id).toBeNull();
    expect(body[0].invitee.gravatar_id).toBeUndefined();
    const unpatched = check(
      responseSchema("/repos/{owner}/{repo}/invitations", "get"),
      body,
      github.components.schemas,
    );
    expect(unpatched.length).toBeGreaterThan(0);
    expect(unpatched.every((error) => error.endsWith("missing required 'gravatar_id'"))).toBe(true);
  });

  it("the Hook has the spec's shape, not GitHub's webhook shape", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/repos/acme/api/hooks/1");
    expect(body).toMatchObject({
      url: "https://ci.acme.example/hooks/forge",
      content_type: "json",
      branch_filter: "*",
      metadata: null,
    });
    const errors = check(responseSchema("/repos/{owner}/{repo}/hooks/{hook_id}", "get"), body);
    expect(errors.sort()).toEqual(
      [
        "$: missing required 'name'",
        "$: missing required 'ping_url'",
        "$: missing required 'test_url'",
        "$: missing required 'last_response'",
      ].sort(),
    );
  });

  it("the rate limit names the spec's assistant_usage_records category", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/rate_limit");
    expect(body.resources.assistant_usage_records).toBeDefined();
    expect(body.resources.copilot_usage_records).toBeUndefined();
  });

  it("exclude=repositories omits the repositories GitHub's schema lists as required", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/orgs/acme/migrations/2?exclude=repositories");
    const errors = check(responseSchema("/orgs/{org}/migrations/{migration_id}", "get"), body);
    expect(errors).toEqual(["$: missing required 'repositories'"]);
  });
});
