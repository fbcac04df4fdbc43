import { sign } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { APP_ID, appKeys, appSeedFile, INSTALLATION_ID } from "../helpers/apps.js";
import { demoWorld } from "../../src/sandbox/index.js";
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
      body: { config: { url: "https://chat.acme.example/notify" }, events: ["issues"] },
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

describe("ruleset responses validate against GitHub's published OpenAPI schemas", () => {
  const body = {
    name: "main",
    enforcement: "active",
    bypass_actors: [
      { actor_id: 5, actor_type: "RepositoryRole", bypass_mode: "always" },
      { actor_type: "OrganizationAdmin" },
      { actor_id: 1, actor_type: "Team", bypass_mode: "pull_request" },
    ],
    conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
    rules: [
      { type: "deletion" },
      {
        type: "pull_request",
        parameters: {
          required_approving_review_count: 1,
          dismiss_stale_reviews_on_push: false,
          require_code_owner_review: false,
          require_last_push_approval: false,
          required_review_thread_resolution: false,
          dismissal_restriction: {
            enabled: true,
            allowed_actors: [{ id: 31001, type: "IntegrationInstallation" }],
          },
        },
      },
      {
        type: "required_status_checks",
        parameters: {
          strict_required_status_checks_policy: true,
          required_status_checks: [{ context: "ci/build", integration_id: 15368 }],
        },
      },
    ],
  };

  it("repository rulesets: list, create, read, update", async () => {
    const sb = await sandbox();
    const path = "/repos/{owner}/{repo}/rulesets";
    const one = `${path}/{ruleset_id}`;
    const created = await call(sb, "POST", "/repos/acme/api/rulesets", { body });
    expect(created.status).toBe(201);
    expect(check(responseSchema(path, "post", "201"), created.body)).toEqual([]);
    const read = await call(sb, "GET", `/repos/acme/api/rulesets/${created.body.id}`);
    expect(check(responseSchema(one, "get"), read.body)).toEqual([]);
    const inherited = await call(sb, "GET", "/repos/acme/api/rulesets/1");
    expect(check(responseSchema(one, "get"), inherited.body)).toEqual([]);
    const updated = await call(sb, "PUT", `/repos/acme/api/rulesets/${created.body.id}`, {
      body: { enforcement: "evaluate" },
    });
    expect(check(responseSchema(one, "put"), updated.body)).toEqual([]);
    const listed = await call(sb, "GET", "/repos/acme/api/rulesets");
    expect(listed.body).toHaveLength(3);
    expect(check(responseSchema(path, "get"), listed.body)).toEqual([]);
  });

  it("organization rulesets: list, create, read, update", async () => {
    const sb = await sandbox();
    const path = "/orgs/{org}/rulesets";
    const one = `${path}/{ruleset_id}`;
    const created = await call(sb, "POST", "/orgs/acme/rulesets", {
      body: {
        ...body,
        conditions: { ...body.conditions, repository_name: { include: ["~ALL"], exclude: [] } },
      },
    });
    expect(created.status).toBe(201);
    expect(check(responseSchema(path, "post", "201"), created.body)).toEqual([]);
    expect(
      check(responseSchema(one, "get"), (await call(sb, "GET", "/orgs/acme/rulesets/1")).body),
    ).toEqual([]);
    const updated = await call(sb, "PUT", `/orgs/acme/rulesets/${created.body.id}`, {
      body: { enforcement: "disabled" },
    });
    expect(check(responseSchema(one, "put"), updated.body)).toEqual([]);
    expect(
      check(responseSchema(path, "get"), (await call(sb, "GET", "/orgs/acme/rulesets")).body),
    ).toEqual([]);
  });

  it("rules for a branch, an organization's teams and installations, an app", async () => {
    const sb = await sandbox();
    await call(sb, "POST", "/repos/acme/api/rulesets", { body });
    const rules = await call(sb, "GET", "/repos/acme/api/rules/branches/main");
    expect(rules.body.length).toBeGreaterThan(3);
    expect(
      check(responseSchema("/repos/{owner}/{repo}/rules/branches/{branch}", "get"), rules.body),
    ).toEqual([]);
    const teams = await call(sb, "GET", "/orgs/acme/teams");
    expect(check(responseSchema("/orgs/{org}/teams", "get"), teams.body)).toEqual([]);
    const installations = await call(sb, "GET", "/orgs/acme/installations");
    expect(check(responseSchema("/orgs/{org}/installations", "get"), installations.body)).toEqual(
      [],
    );
    const found = await call(sb, "GET", "/apps/ci-bot");
    expect(check(responseSchema("/apps/{app_slug}", "get"), found.body)).toEqual([]);
  });
});

/** A JWT of App 4242, as forgeplan signs one to act as the App. */
function appJwt(): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256" })}.${encode({ iat: now - 60, exp: now + 540, iss: APP_ID })}`;
  return `${unsigned}.${sign("sha256", Buffer.from(unsigned), appKeys().privateKey).toString("base64url")}`;
}

/** The demo world and a user whose token is a classic one without the `user` scope. */
function accountWorld(): string {
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-contract-")), "world.yaml");
  const seed = {
    ...demoWorld,
    users: [
      ...(demoWorld.users ?? []),
      { login: "octo-classic", id: 60, token: "classic-token", token_scopes: ["repo", "read:org"] },
    ],
  };
  writeFileSync(file, stringify(seed));
  return file;
}

describe("the account, App and installation routes forgeplan calls validate against GitHub's schemas", () => {
  it("GET /user: the private profile to the account's own token, the public one where GitHub shows only that", async () => {
    const sb = await sandbox({ seed: accountWorld() });
    const schema = responseSchema("/user", "get");
    const own = await call(sb, "GET", "/user");
    expect(own.body).toMatchObject({
      login: "octo-admin",
      user_view_type: "private",
      plan: { name: "free" },
    });
    // GET /user is GitHub's, not the spec's: its schema as published, gravatar_id and all.
    expect(check(schema, own.body, github.components.schemas)).toEqual([]);
    expect(
      check(github.components.schemas["private-user"]!, own.body, github.components.schemas),
    ).toEqual([]);
    const classic = await call(sb, "GET", "/user", { token: "classic-token" });
    expect(classic.body).toMatchObject({ login: "octo-classic", user_view_type: "public" });
    expect(classic.body.two_factor_authentication).toBeUndefined();
    expect(check(schema, classic.body, github.components.schemas)).toEqual([]);
    expect(
      check(github.components.schemas["public-user"]!, classic.body, github.components.schemas),
    ).toEqual([]);
  });

  it("the App's own routes, its installations, tokens, and what an installation token lists", async () => {
    const sb = await sandbox({ seed: appSeedFile(appKeys().publicKey) });
    const jwt = appJwt();
    const answers: Array<[string, string, string, unknown]> = [];
    const read = async (
      path: string,
      schemaPath: string,
      token: string,
      method = "GET",
      status = "200",
    ) => {
      const answer = await call(sb, method, path, {
        token,
        ...(method === "POST" ? { body: {} } : {}),
      });
      expect(answer.status).toBe(Number(status));
      answers.push([schemaPath, method.toLowerCase(), status, answer.body]);
      return answer.body;
    };
    await read("/app", "/app", jwt);
    await read(
      `/app/installations/${INSTALLATION_ID}`,
      "/app/installations/{installation_id}",
      jwt,
    );
    await read("/orgs/acme/installation", "/orgs/{org}/installation", jwt);
    await read("/users/acme/installation", "/users/{username}/installation", jwt);
    const minted = (await read(
      `/app/installations/${INSTALLATION_ID}/access_tokens`,
      "/app/installations/{installation_id}/access_tokens",
      jwt,
      "POST",
      "201",
    )) as { token: string };
    await read("/installation/repositories", "/installation/repositories", minted.token);
    await read("/user", "/user", minted.token, "GET", "403");
    await read("/orgs/acme/repos", "/orgs/{org}/repos", minted.token);
    await read("/apps/settings-bot", "/apps/{app_slug}", minted.token);
    for (const [path, method, status, body] of answers) {
      expect(check(responseSchema(path, method, status), body), `${method} ${path}`).toEqual([]);
    }
  });

  it("a user's own and another account's repositories", async () => {
    const sb = await sandbox();
    for (const [path, schemaPath] of [
      ["/user/repos?affiliation=owner", "/user/repos"],
      ["/users/octo-admin/repos", "/users/{username}/repos"],
      ["/orgs/acme/repos", "/orgs/{org}/repos"],
    ] as const) {
      const answer = await call(sb, "GET", path);
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBeGreaterThan(0);
      expect(check(responseSchema(schemaPath, "get"), answer.body), path).toEqual([]);
    }
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
