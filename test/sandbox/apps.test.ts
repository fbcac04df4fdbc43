import { createHash, sign } from "node:crypto";
import { get } from "node:http";
import { describe, expect, it } from "vitest";
import { APP_ID, appKeys, appSeedFile, INSTALLATION_ID } from "../helpers/apps.js";
import { ADMIN, call, sandbox } from "./helpers.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const seconds = Math.floor(NOW / 1000);

/** A JWT signed here, by hand, so each of GitHub's rules can be broken one at a time. */
function jwt(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: "RS256" }) {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const signed = `${encode(header)}.${encode(claims)}`;
  const signature = sign("sha256", Buffer.from(signed), appKeys().privateKey);
  return `${signed}.${signature.toString("base64url")}`;
}

const valid = () => jwt({ iat: seconds - 60, exp: seconds + 540, iss: APP_ID });

async function appSandbox(
  options: {
    now?: () => number;
    ttl?: number;
    selected?: string[];
    permissions?: Record<string, string>;
    organizations?: unknown[];
  } = {},
) {
  return sandbox({
    seed: appSeedFile(appKeys().publicKey, options),
    now: options.now ?? (() => NOW),
    ...(options.ttl !== undefined ? { tokenTtlSeconds: options.ttl } : {}),
  });
}

async function mint(sb: Awaited<ReturnType<typeof appSandbox>>) {
  const answer = await call(sb, "POST", `/app/installations/${INSTALLATION_ID}/access_tokens`, {
    token: valid(),
  });
  expect(answer.status).toBe(201);
  return answer.body as { token: string; expires_at: string };
}

describe("App JWTs", () => {
  it("authenticates the App to GET /app with a JWT signed by its key", async () => {
    const sb = await appSandbox();
    const answer = await call(sb, "GET", "/app", { token: valid() });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: APP_ID, slug: "settings-bot", installations_count: 1 });
  });

  it.each([
    [
      "a JWT whose signature does not verify",
      () => valid().replace(/.{4}$/, "AAAA"),
      "A JSON web token could not be decoded",
    ],
    [
      "a JWT signed with another algorithm's header",
      () => jwt({ iat: seconds - 60, exp: seconds + 540, iss: APP_ID }, { alg: "HS256" }),
      "A JSON web token could not be decoded",
    ],
    [
      "a JWT of an unknown App",
      () => jwt({ iat: seconds - 60, exp: seconds + 540, iss: 9 }),
      "A JSON web token could not be decoded",
    ],
    [
      "exp more than 10 minutes ahead",
      () => jwt({ iat: seconds - 60, exp: seconds + 601, iss: APP_ID }),
      "'Expiration time' claim ('exp') is too far in the future",
    ],
    [
      "exp in the past",
      () => jwt({ iat: seconds - 700, exp: seconds - 1, iss: APP_ID }),
      "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    ],
    [
      "iat in the future",
      () => jwt({ iat: seconds + 5, exp: seconds + 500, iss: APP_ID }),
      "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
    ],
  ])("refuses %s with GitHub's 401", async (_what, token, message) => {
    const sb = await appSandbox();
    const answer = await call(sb, "GET", "/app", { token: token() });
    expect([answer.status, answer.body.message]).toEqual([401, message]);
  });

  it("accepts exp exactly 10 minutes ahead", async () => {
    const sb = await appSandbox();
    const token = jwt({ iat: seconds - 60, exp: seconds + 600, iss: APP_ID });
    expect((await call(sb, "GET", "/app", { token })).status).toBe(200);
  });

  it("finds the installation by organization, user and repository, and 404s elsewhere", async () => {
    const sb = await appSandbox({ selected: ["acme/api"] });
    const token = valid();
    for (const path of [
      "/orgs/acme/installation",
      "/users/acme/installation",
      "/repos/acme/api/installation",
    ]) {
      const answer = await call(sb, "GET", path, { token });
      expect([path, answer.status, answer.body.id]).toEqual([path, 200, INSTALLATION_ID]);
    }
    for (const path of ["/users/octo-admin/installation", "/repos/acme/web/installation"]) {
      expect([path, (await call(sb, "GET", path, { token })).status]).toEqual([path, 404]);
    }
  });

  it("is only for the App endpoints: a JWT elsewhere is refused, and a user token there", async () => {
    const sb = await appSandbox();
    const elsewhere = await call(sb, "GET", "/repos/acme/api/hooks", { token: valid() });
    expect([elsewhere.status, elsewhere.body.message]).toEqual([
      403,
      "Resource not accessible by integration",
    ]);
    const userToken = await call(sb, "GET", "/app");
    expect([userToken.status, userToken.body.message]).toEqual([
      401,
      "A JSON web token could not be decoded",
    ]);
  });
});

describe("installation tokens", () => {
  it("are issued with expires_at a lifetime ahead (--token-ttl) and counted in the stats", async () => {
    const sb = await appSandbox({ ttl: 90 });
    const token = await mint(sb);
    expect(token.token).toMatch(/^ghs_/);
    expect(token.expires_at).toBe("2026-03-01T12:01:30Z");
    expect(sb.stats().installation_tokens_issued).toBe(1);
  });

  it("default to GitHub's hour", async () => {
    const sb = await appSandbox();
    expect((await mint(sb)).expires_at).toBe("2026-03-01T13:00:00Z");
  });

  it("refuse to be narrowed rather than hand out more than was asked for", async () => {
    const sb = await appSandbox();
    const answer = await call(sb, "POST", `/app/installations/${INSTALLATION_ID}/access_tokens`, {
      token: valid(),
      body: { repositories: ["api"] },
    });
    expect(answer.status).toBe(422);
  });

  it("answer 401 Bad credentials once expired, as an unknown token does", async () => {
    let now = NOW;
    const sb = await appSandbox({ now: () => now, ttl: 60 });
    const { token } = await mint(sb);
    expect((await call(sb, "GET", "/repos/acme/api/hooks", { token })).status).toBe(200);
    now += 60_000;
    const expired = await call(sb, "GET", "/repos/acme/api/hooks", { token });
    expect([expired.status, expired.body.message]).toEqual([401, "Bad credentials"]);
    const unknown = await call(sb, "GET", "/repos/acme/api/hooks", { token: "ghs_unknown" });
    expect([unknown.status, unknown.body.message]).toEqual([401, "Bad credentials"]);
  });

  it("reach only the installation's repositories (404 elsewhere) and permissions (403)", async () => {
    const sb = await appSandbox({
      selected: ["acme/api"],
      permissions: { administration: "read", repository_hooks: "write" },
    });
    const { token } = await mint(sb);
    expect(
      (await call(sb, "GET", "/repos/acme/api/branches/main/protection", { token })).status,
    ).toBe(200);
    const hidden = await call(sb, "GET", "/repos/acme/web/hooks", { token });
    expect([hidden.status, hidden.body.message]).toEqual([404, "Not Found"]);
    const otherOwner = await call(sb, "GET", "/repos/octo-admin/dotfiles/hooks", { token });
    expect(otherOwner.status).toBe(403);
    const write = await call(sb, "PUT", "/repos/acme/api/branches/main/protection", {
      token,
      body: {
        required_status_checks: null,
        enforce_admins: true,
        required_pull_request_reviews: null,
        restrictions: null,
      },
    });
    expect([write.status, write.body.message]).toEqual([
      403,
      "Resource not accessible by integration",
    ]);
    const gists = await call(sb, "GET", "/gists", { token });
    expect(gists.status).toBe(403);
    const listed = await call(sb, "GET", "/orgs/acme/repos", { token });
    expect(listed.body.map((repo: { full_name: string }) => repo.full_name)).toEqual(["acme/api"]);
  });

  it("share the installation's rate budget, whichever token spends it", async () => {
    const sb = await appSandbox();
    const first = await mint(sb);
    await call(sb, "GET", "/repos/acme/api/hooks", { token: first.token });
    const second = await mint(sb);
    const answer = await call(sb, "GET", "/repos/acme/api/hooks", { token: second.token });
    expect(answer.headers.get("x-ratelimit-used")).toBe("2");
  });
});

describe("ETags as GitHub computes them", () => {
  const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

  it("hash Accept, Authorization and the body, so each token gets its own validator", async () => {
    const sb = await appSandbox();
    const first = await mint(sb);
    const second = await mint(sb);
    const headers = { Accept: "application/vnd.github+json" };
    const a = await call(sb, "GET", "/repos/acme/api/branches/main/protection", {
      token: first.token,
      headers,
    });
    const b = await call(sb, "GET", "/repos/acme/api/branches/main/protection", {
      token: second.token,
      headers,
    });
    expect(a.text).toBe(b.text);
    expect(a.headers.get("etag")).toBe(
      `"${sha256(`application/vnd.github+json:Bearer ${first.token}:${a.text}`)}"`,
    );
    expect(b.headers.get("etag")).not.toBe(a.headers.get("etag"));
    expect(a.headers.get("vary")).toBe("Accept, Authorization, Cookie, X-GitHub-OTP");

    // A validator from one token's answer is not one for another's…
    const stale = await call(sb, "GET", "/repos/acme/api/branches/main/protection", {
      token: second.token,
      headers: { ...headers, "If-None-Match": a.headers.get("etag") ?? "" },
    });
    expect(stale.status).toBe(200);
    // …but the one computed for the current token over the same body is.
    const computed = `"${sha256(`application/vnd.github+json:Bearer ${second.token}:${a.text}`)}"`;
    const fresh = await call(sb, "GET", "/repos/acme/api/branches/main/protection", {
      token: second.token,
      headers: { ...headers, "If-None-Match": computed },
    });
    expect([fresh.status, fresh.text]).toEqual([304, ""]);
  });

  it("are weak for listings and hash only the headers present", async () => {
    const sb = await appSandbox();
    // node:http sends no Accept and no Authorization unless told: the hash is the body's alone.
    const { etag, text } = await new Promise<{ etag: unknown; text: string }>((resolve, reject) => {
      get(`${sb.url}/orgs/acme/repos`, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ etag: res.headers.etag, text: body }));
      }).on("error", reject);
    });
    expect(etag).toBe(`W/"${sha256(text)}"`);
  });

  it("send Last-Modified for a repository and answer If-Modified-Since without If-None-Match", async () => {
    const sb = await appSandbox();
    const answer = await call(sb, "GET", "/repos/acme/api");
    const lastModified = answer.headers.get("last-modified") ?? "";
    expect(lastModified).toBe(new Date(answer.body.updated_at).toUTCString());
    const since = await call(sb, "GET", "/repos/acme/api", {
      headers: { "If-Modified-Since": lastModified },
    });
    expect(since.status).toBe(304);
    // With If-None-Match present the date is not consulted (RFC 9110 §13.1.3).
    const both = await call(sb, "GET", "/repos/acme/api", {
      headers: { "If-Modified-Since": lastModified, "If-None-Match": '"not-this"' },
    });
    expect(both.status).toBe(200);
  });
});

describe("an installation's permissions, as GitHub requires them", () => {
  const accepted = (answer: { headers: Headers }) =>
    answer.headers.get("x-accepted-github-permissions");

  it("take each operation's own permission and name it in X-Accepted-GitHub-Permissions", async () => {
    const sb = await appSandbox({ permissions: { repository_hooks: "write" } });
    const { token } = await mint(sb);
    const config = await call(sb, "PATCH", "/repos/acme/api/hooks/1/config", {
      token,
      body: { content_type: "json" },
    });
    expect([config.status, accepted(config)]).toEqual([200, "repository_hooks=write"]);
    // Listing branches takes Contents, not Metadata; writing a ruleset takes Administration.
    const branches = await call(sb, "GET", "/repos/acme/api/branches", { token });
    expect([branches.status, branches.body.message, accepted(branches)]).toEqual([
      403,
      "Resource not accessible by integration",
      "contents=read",
    ]);
    const rulesets = await call(sb, "GET", "/repos/acme/api/rulesets", { token });
    expect([rulesets.status, accepted(rulesets)]).toEqual([200, "metadata=read"]);
    const created = await call(sb, "POST", "/repos/acme/api/rulesets", {
      token,
      body: { name: "x", enforcement: "active", target: "branch", rules: [{ type: "deletion" }] },
    });
    expect([created.status, accepted(created)]).toEqual([403, "administration=write"]);
    const teams = await call(sb, "GET", "/orgs/acme/teams", { token });
    expect([teams.status, accepted(teams)]).toEqual([403, "members=read"]);
    // GitHub lists even the reads of organization rulesets under Administration write.
    const orgRulesets = await call(sb, "GET", "/orgs/acme/rulesets", { token });
    expect([orgRulesets.status, accepted(orgRulesets)]).toEqual([
      403,
      "organization_administration=write",
    ]);
    const app = await call(sb, "GET", "/apps/settings-bot", { token });
    expect([app.status, app.body.slug]).toEqual([200, "settings-bot"]);
  });

  it("take Issues for an issue's comments and Pull requests for a pull request's", async () => {
    const sb = await appSandbox({ permissions: { pull_requests: "write" } });
    const { token } = await mint(sb);
    const issue = await call(sb, "POST", "/repos/acme/api/issues", {
      token: ADMIN,
      body: { title: "an issue" },
    });
    const pull = await call(sb, "POST", "/repos/acme/api/pulls", {
      token: ADMIN,
      body: { title: "a pull request", head: "release", base: "main" },
    });
    const comment = (number: number) =>
      call(sb, "POST", `/repos/acme/api/issues/${number}/comments`, {
        token,
        body: { body: "plan" },
      });
    const onPull = await comment(pull.body.number);
    expect([onPull.status, accepted(onPull)]).toEqual([201, "pull_requests=write"]);
    const onIssue = await comment(issue.body.number);
    expect([onIssue.status, accepted(onIssue)]).toEqual([403, "issues=write"]);
    const edited = await call(sb, "PATCH", `/repos/acme/api/issues/comments/${onPull.body.id}`, {
      token,
      body: { body: "plan, again" },
    });
    expect([edited.status, accepted(edited)]).toEqual([200, "pull_requests=write"]);
    const pulls = await call(sb, "GET", "/repos/acme/api/commits/main/pulls", { token });
    expect([pulls.status, accepted(pulls)]).toEqual([200, "pull_requests=read"]);
    const issues = await call(sb, "GET", "/repos/acme/api/issues", { token });
    expect([issues.status, accepted(issues)]).toEqual([403, "issues=read"]);
    // Issues alone does not read a pull request's comments.
    const issuesOnly = await appSandbox({ permissions: { issues: "write" } });
    const other = await mint(issuesOnly);
    await call(issuesOnly, "POST", "/repos/acme/api/pulls", {
      token: ADMIN,
      body: { title: "a pull request", head: "release", base: "main" },
    });
    const read = await call(issuesOnly, "GET", "/repos/acme/api/issues/1/comments", {
      token: other.token,
    });
    expect([read.status, accepted(read)]).toEqual([403, "pull_requests=read"]);
  });

  it("tell nothing of what the installation may not see", async () => {
    const sb = await appSandbox({
      selected: ["acme/web"],
      permissions: { pull_requests: "write" },
    });
    const { token } = await mint(sb);
    const pull = await call(sb, "POST", "/repos/acme/api/pulls", {
      token: ADMIN,
      body: { title: "a hidden pull request", head: "release", base: "main" },
    });
    const comment = await call(sb, "POST", `/repos/acme/api/issues/${pull.body.number}/comments`, {
      token: ADMIN,
      body: { body: "hidden" },
    });
    expect([pull.status, comment.status]).toEqual([201, 201]);
    // A private repository outside the installation: 404, and no header that would say the number
    // is a pull request.
    const hidden = await call(sb, "GET", `/repos/acme/api/issues/${pull.body.number}/comments`, {
      token,
    });
    expect([hidden.status, accepted(hidden)]).toEqual([404, null]);
    // Another repository's comment id is not looked up through this one.
    const elsewhere = await call(
      sb,
      "PATCH",
      `/repos/acme/web/issues/comments/${comment.body.id}`,
      {
        token,
        body: { body: "edited" },
      },
    );
    expect([elsewhere.status, accepted(elsewhere)]).toEqual([403, "issues=write"]);
  });

  it("read a public repository's public parts without the permissions, and nothing else", async () => {
    const sb = await appSandbox({ permissions: { administration: "read" } });
    const { token } = await mint(sb);
    // octo-admin/dotfiles is public and outside the installation (it is on acme).
    const branches = await call(sb, "GET", "/repos/octo-admin/dotfiles/branches", { token });
    expect([branches.status, accepted(branches)]).toEqual([200, "contents=read"]);
    const hooks = await call(sb, "GET", "/repos/octo-admin/dotfiles/hooks", { token });
    expect([hooks.status, accepted(hooks)]).toEqual([403, null]);
  });

  it("show a ruleset's bypass actors to an installation that may write it, as to people", async () => {
    const bypass = async (administration: string) => {
      const sb = await appSandbox({ permissions: { administration } });
      const { token } = await mint(sb);
      const ruleset = await call(sb, "GET", "/repos/acme/api/rulesets/2", { token });
      expect(ruleset.status).toBe(200);
      return ruleset.body.bypass_actors;
    };
    expect(await bypass("read")).toBeUndefined();
    expect(await bypass("write")).toEqual([
      { actor_id: 2, actor_type: "Team", bypass_mode: "always" },
    ]);
  });

  it("refuse what GitHub does not open to Apps, and another organization's resources", async () => {
    const sb = await appSandbox({
      permissions: { organization_administration: "write", members: "read" },
      organizations: [{ login: "globex", id: 300, name: "Globex", owners: ["octo-admin"] }],
    });
    const { token } = await mint(sb);
    // @octokit/openapi: enabledForGitHubApps is false for the organization migrations.
    const migration = await call(sb, "GET", "/orgs/acme/migrations/2", { token });
    expect([migration.status, accepted(migration)]).toEqual([403, null]);
    expect((await call(sb, "GET", "/orgs/acme/teams", { token })).status).toBe(200);
    const installations = await call(sb, "GET", "/orgs/acme/installations", { token });
    expect([installations.status, accepted(installations)]).toEqual([
      200,
      "organization_administration=read",
    ]);
    // Members reads teams, not property values: those take organization Custom properties.
    const values = await call(sb, "GET", "/orgs/acme/properties/values", { token });
    expect([values.status, accepted(values)]).toEqual([403, "organization_custom_properties=read"]);
    const other = await call(sb, "GET", "/orgs/globex/teams", { token });
    // No permission would change this answer: it names none.
    expect([other.status, other.body.message, accepted(other)]).toEqual([
      403,
      "Resource not accessible by integration",
      null,
    ]);
    expect((await call(sb, "GET", "/orgs/globex/teams", { token: ADMIN })).status).toBe(200);
  });
});
