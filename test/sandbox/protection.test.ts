import { describe, expect, it } from "vitest";
import { call, DEV, protectionBody, READER, sandbox } from "./helpers.js";

const SMALL = "test/sandbox/fixtures/small-world.yaml";
const MAIN = "/repos/acme/api/branches/main/protection";

describe("GET branch protection", () => {
  it("returns the demo world's record for acme/api main, with absolute URLs", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "GET", MAIN);
    expect(status).toBe(200);
    const url = `${sb.url}${MAIN}`;
    expect(body).toEqual({
      url,
      required_status_checks: {
        url: `${url}/required_status_checks`,
        strict: true,
        contexts: ["ci/build"],
        checks: [{ context: "ci/build", app_id: 15368 }],
        contexts_url: `${url}/required_status_checks/contexts`,
      },
      required_pull_request_reviews: {
        url: `${url}/required_pull_request_reviews`,
        dismiss_stale_reviews: true,
        require_code_owner_reviews: false,
        required_approving_review_count: 1,
        require_last_push_approval: false,
      },
      required_signatures: { url: `${url}/required_signatures`, enabled: false },
      enforce_admins: { url: `${url}/enforce_admins`, enabled: false },
      required_linear_history: { enabled: false },
      allow_force_pushes: { enabled: false },
      allow_deletions: { enabled: false },
      block_creations: { enabled: false },
      required_conversation_resolution: { enabled: false },
      lock_branch: { enabled: false },
      allow_fork_syncing: { enabled: false },
    });
  });

  it("is case-insensitive in owner and repository", async () => {
    const sb = await sandbox();
    expect((await call(sb, "GET", "/repos/ACME/Api/branches/main/protection")).status).toBe(200);
  });

  it("answers 404 'Branch not protected', 'Branch not found' and 'Not Found'", async () => {
    const sb = await sandbox();
    const release = await call(sb, "GET", "/repos/acme/api/branches/release/protection");
    expect(release.status).toBe(404);
    expect(release.body.message).toBe("Branch not protected");
    const missing = await call(sb, "GET", "/repos/acme/api/branches/nope/protection");
    expect([missing.status, missing.body.message]).toEqual([404, "Branch not found"]);
    const repo = await call(sb, "GET", "/repos/acme/nope/branches/main/protection");
    expect([repo.status, repo.body.message]).toEqual([404, "Not Found"]);
  });

  it("needs credentials (401), admin rights (403), and hides private repositories (404)", async () => {
    const sb = await sandbox();
    const dotfiles = "/repos/octo-admin/dotfiles/branches/main/protection";
    const anonymous = await call(sb, "GET", dotfiles, { token: null });
    expect([anonymous.status, anonymous.body.message]).toEqual([401, "Requires authentication"]);
    // GitHub hides a private repository from an unauthenticated caller as from anyone else.
    expect((await call(sb, "GET", MAIN, { token: null })).status).toBe(404);
    const bad = await call(sb, "GET", MAIN, { token: "nope" });
    expect([bad.status, bad.body.message]).toEqual([401, "Bad credentials"]);
    const reader = await call(sb, "GET", MAIN, { token: READER });
    expect([reader.status, reader.body.message]).toEqual([
      403,
      "Must have admin rights to Repository.",
    ]);
    expect((await call(sb, "GET", MAIN, { token: DEV })).status).toBe(403);

    const small = await sandbox({ seed: SMALL });
    const hidden = await call(small, "GET", "/repos/tiny/strict/branches/main/protection", {
      token: "bob-token",
    });
    expect(hidden.status).toBe(404);
  });
});

describe("PUT branch protection", () => {
  it("stores every field of the body and answers the full Protected Branch record", async () => {
    const sb = await sandbox();
    const put = await call(sb, "PUT", MAIN, {
      body: {
        required_status_checks: {
          strict: false,
          checks: [
            { context: "ci/build", app_id: 15368 },
            { context: "lint", app_id: -1 },
          ],
        },
        enforce_admins: true,
        required_pull_request_reviews: {
          dismissal_restrictions: { users: ["octo-dev"], teams: ["platform"], apps: ["ci-bot"] },
          dismiss_stale_reviews: false,
          require_code_owner_reviews: true,
          required_approving_review_count: 2,
          require_last_push_approval: true,
          bypass_pull_request_allowances: { users: ["octo-admin"], teams: [], apps: ["ci-bot"] },
        },
        restrictions: { users: ["octo-dev"], teams: ["platform"], apps: ["ci-bot"] },
        required_linear_history: true,
        allow_force_pushes: true,
        allow_deletions: true,
        block_creations: true,
        required_conversation_resolution: true,
        lock_branch: true,
        allow_fork_syncing: true,
      },
    });
    expect(put.status).toBe(200);
    const record = put.body;
    expect(record.required_status_checks.checks).toEqual([
      { context: "ci/build", app_id: 15368 },
      { context: "lint", app_id: null },
    ]);
    expect(record.required_status_checks.contexts).toEqual(["ci/build", "lint"]);
    expect(record.enforce_admins.enabled).toBe(true);
    const reviews = record.required_pull_request_reviews;
    expect(reviews).toMatchObject({
      dismiss_stale_reviews: false,
      require_code_owner_reviews: true,
      required_approving_review_count: 2,
      require_last_push_approval: true,
    });
    expect(reviews.dismissal_restrictions.users.map((u: { login: string }) => u.login)).toEqual([
      "octo-dev",
    ]);
    expect(reviews.dismissal_restrictions.teams[0].slug).toBe("platform");
    expect(reviews.dismissal_restrictions.apps[0].slug).toBe("ci-bot");
    expect(reviews.dismissal_restrictions.url).toBe(`${sb.url}${MAIN}/dismissal_restrictions`);
    expect(reviews.bypass_pull_request_allowances.users[0].login).toBe("octo-admin");
    expect(record.restrictions.users[0].login).toBe("octo-dev");
    expect(record.restrictions.apps_url).toBe(`${sb.url}${MAIN}/restrictions/apps`);
    for (const key of [
      "required_linear_history",
      "allow_force_pushes",
      "allow_deletions",
      "block_creations",
      "required_conversation_resolution",
      "lock_branch",
      "allow_fork_syncing",
    ]) {
      expect(record[key]).toEqual({ enabled: true });
    }
    expect((await call(sb, "GET", MAIN)).body).toEqual(record);
    expect(sb.stats().mutations_applied).toBe(1);
  });

  it("gives omitted optional fields the spec's defaults and treats null as disabled", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "PUT", MAIN, {
      body: protectionBody({
        required_pull_request_reviews: {},
        allow_force_pushes: null,
      }),
    });
    expect(status).toBe(200);
    expect(body.required_status_checks).toBeUndefined();
    expect(body.restrictions).toBeUndefined();
    expect(body.enforce_admins.enabled).toBe(false);
    expect(body.allow_force_pushes.enabled).toBe(false);
    expect(body.required_linear_history.enabled).toBe(false);
    expect(body.required_pull_request_reviews).toEqual({
      url: `${sb.url}${MAIN}/required_pull_request_reviews`,
      dismiss_stale_reviews: false,
      require_code_owner_reviews: false,
      required_approving_review_count: 1,
      require_last_push_approval: false,
    });
  });

  it("binds checks sent without app_id to the app that recently reported them", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "PUT", MAIN, {
      body: protectionBody({
        required_status_checks: { strict: true, contexts: ["ci/build", "docs", "docs"] },
      }),
    });
    expect(body.required_status_checks.checks).toEqual([
      { context: "ci/build", app_id: 15368 },
      { context: "docs", app_id: null },
    ]);
  });

  it("replaces arrays rather than merging them", async () => {
    const sb = await sandbox();
    const restrict = (users: string[]) =>
      call(sb, "PUT", MAIN, {
        body: protectionBody({ restrictions: { users, teams: ["platform"] } }),
      });
    await restrict(["octo-dev"]);
    const { body } = await restrict([]);
    expect(body.restrictions.users).toEqual([]);
    expect(body.restrictions.teams.map((t: { slug: string }) => t.slug)).toEqual(["platform"]);
  });

  it("silently drops restriction users and teams without push access, as GitHub does", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "PUT", "/repos/acme/web/branches/main/protection", {
      body: protectionBody({
        restrictions: {
          users: ["octo-dev", "octo-reader", "hubot"],
          teams: ["platform", "release-managers"],
        },
      }),
    });
    expect(status).toBe(200);
    expect(body.restrictions.users.map((u: { login: string }) => u.login)).toEqual(["octo-dev"]);
    expect(body.restrictions.teams.map((t: { slug: string }) => t.slug)).toEqual(["platform"]);
  });

  it("refuses unknown users, teams, apps and app ids with 422", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "PUT", MAIN, {
      body: protectionBody({
        required_status_checks: {
          strict: true,
          checks: [{ context: "x", app_id: 99 }],
        },
        restrictions: { users: ["nobody"], teams: ["ghosts"], apps: ["no-app"] },
      }),
    });
    expect(status).toBe(422);
    expect(body.message).toBe("Validation Failed");
    expect(body.documentation_url).toEqual(expect.any(String));
    expect(body.errors).toEqual([
      "required_status_checks.checks: app_id 99 is not an installed app",
      "restrictions.users: user 'nobody' does not exist",
      "restrictions.teams: team 'ghosts' does not exist in acme",
      "restrictions.apps: app 'no-app' does not exist",
    ]);
  });

  it("limits users, teams and apps to 100 in total", async () => {
    const sb = await sandbox();
    const many = Array.from({ length: 51 }, () => "octo-dev");
    const { status, body } = await call(sb, "PUT", MAIN, {
      body: protectionBody({
        restrictions: { users: many, teams: [] },
        required_pull_request_reviews: { bypass_pull_request_allowances: { users: many } },
      }),
    });
    expect(status).toBe(422);
    expect(body.errors[0]).toContain("at most 100");
    const hundred = Array.from({ length: 100 }, () => "octo-dev");
    const fine = await call(sb, "PUT", MAIN, {
      body: protectionBody({ restrictions: { users: hundred, teams: [] } }),
    });
    expect(fine.status).toBe(200);
  });

  it.each([
    [-1, 422],
    [0, 200],
    [6, 200],
    [7, 422],
  ])("required_approving_review_count %i → %i", async (count, expected) => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "PUT", MAIN, {
      body: protectionBody({
        required_pull_request_reviews: { required_approving_review_count: count },
      }),
    });
    expect(status).toBe(expected);
    if (expected === 200) {
      expect(body.required_pull_request_reviews.required_approving_review_count).toBe(count);
    } else expect(body.errors[0]).toContain("must be 0 to 6");
  });

  it("accepts linear history only where squash or rebase merging is allowed", async () => {
    const demo = await sandbox();
    const web = await call(demo, "PUT", "/repos/acme/web/branches/main/protection", {
      body: protectionBody({ required_linear_history: true }),
    });
    expect(web.status).toBe(200);
    const small = await sandbox({ seed: SMALL });
    const strict = await call(small, "PUT", "/repos/tiny/strict/branches/main/protection", {
      token: "alice-token",
      body: protectionBody({ required_linear_history: true }),
    });
    expect(strict.status).toBe(422);
    expect(strict.body.errors[0]).toContain("squash or rebase");
  });

  it("refuses user and team restrictions on personal repositories", async () => {
    const sb = await sandbox();
    const path = "/repos/octo-admin/dotfiles/branches/main/protection";
    const restricted = await call(sb, "PUT", path, {
      body: protectionBody({ restrictions: { users: ["octo-admin"], teams: [] } }),
    });
    expect(restricted.status).toBe(422);
    const dismissal = await call(sb, "PUT", path, {
      body: protectionBody({
        required_pull_request_reviews: { dismissal_restrictions: { users: ["octo-admin"] } },
      }),
    });
    expect(dismissal.status).toBe(422);
    const plain = await call(sb, "PUT", path, {
      body: protectionBody({ required_pull_request_reviews: { dismiss_stale_reviews: true } }),
    });
    expect(plain.status).toBe(200);
  });

  it("refuses wildcard branch names, pointing at GraphQL", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "PUT", "/repos/acme/api/branches/rel*/protection", {
      body: protectionBody(),
    });
    expect(status).toBe(422);
    expect(body.errors[0]).toContain("GraphQL");
  });

  it("answers type errors and missing required keys with GitHub's 422, ignoring unknown keys", async () => {
    const sb = await sandbox();
    const wrong = await call(sb, "PUT", MAIN, {
      body: {
        required_status_checks: { strict: "yes", contexts: [] },
        required_pull_request_reviews: null,
        restrictions: null,
      },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      message:
        'Invalid request.\n\nFor \'properties/strict\', "yes" is not a boolean.\n"enforce_admins" wasn\'t supplied.',
      documentation_url:
        "https://docs.github.com/rest/branches/branch-protection#update-branch-protection",
      errors: [
        "For 'properties/strict', \"yes\" is not a boolean.",
        '"enforce_admins" wasn\'t supplied.',
      ],
    });
    const extra = await call(sb, "PUT", MAIN, { body: protectionBody({ frobnicate: true }) });
    expect(extra.status).toBe(200);
    expect(extra.body.frobnicate).toBeUndefined();
  });

  it("needs admin rights and an existing branch; a locked repository refuses changes", async () => {
    const sb = await sandbox();
    const dev = await call(sb, "PUT", MAIN, { token: DEV, body: protectionBody() });
    expect(dev.status).toBe(403);
    const anonymous = await call(sb, "PUT", MAIN, { token: null, body: protectionBody() });
    expect(anonymous.status).toBe(404);
    const missing = await call(sb, "PUT", "/repos/acme/api/branches/nope/protection", {
      body: protectionBody(),
    });
    expect([missing.status, missing.body.message]).toEqual([404, "Branch not found"]);

    const small = await sandbox({ seed: SMALL });
    const locked = await call(small, "PUT", "/repos/tiny/locked/branches/main/protection", {
      token: "alice-token",
      body: protectionBody(),
    });
    expect(locked.status).toBe(403);
    expect(locked.body.message).toContain("locked");
  });

  it("protects branch names holding slashes and keeps required_signatures, which PUT cannot set", async () => {
    const small = await sandbox({ seed: SMALL });
    const release = await call(small, "PUT", "/repos/tiny/strict/branches/release/v1/protection", {
      token: "alice-token",
      body: protectionBody({ enforce_admins: true }),
    });
    expect(release.status).toBe(200);
    expect(release.body.url).toBe(
      `${small.url}/repos/tiny/strict/branches/release%2Fv1/protection`,
    );
    const main = await call(small, "PUT", "/repos/tiny/strict/branches/main/protection", {
      token: "alice-token",
      body: protectionBody(),
    });
    expect(main.body.required_signatures.enabled).toBe(true);
    expect(main.body.enforce_admins.enabled).toBe(false);
  });
});

describe("DELETE branch protection", () => {
  it("removes the protection (204), then answers 404 'Branch not protected'", async () => {
    const sb = await sandbox();
    const removed = await call(sb, "DELETE", MAIN);
    expect([removed.status, removed.text]).toEqual([204, ""]);
    const read = await call(sb, "GET", MAIN);
    expect([read.status, read.body.message]).toEqual([404, "Branch not protected"]);
    const again = await call(sb, "DELETE", MAIN);
    expect(again.status).toBe(404);
    const branch = await call(sb, "GET", "/repos/acme/api/branches/main");
    expect(branch.body.protected).toBe(false);
  });

  it("needs admin rights", async () => {
    const sb = await sandbox();
    expect((await call(sb, "DELETE", MAIN, { token: READER })).status).toBe(403);
    expect((await call(sb, "GET", MAIN)).status).toBe(200);
  });
});
