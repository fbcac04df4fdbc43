import { afterEach, describe, expect, it } from "vitest";
import { loadDesiredState } from "../../src/engine/desired.js";
import { expandRepositories } from "../../src/engine/expand.js";
import {
  type RecordedRequest,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from "../../src/sandbox/index.js";
import { ResourceReader } from "../../src/resources/context.js";
import { APP_ID, appKeyWorkspace } from "../helpers/apps.js";
import { runInProcess } from "../helpers/cli.js";
import { ALICE, BOB, userWorldFile } from "../helpers/user-world.js";
import { answer, clientOf, hostile, json } from "../hostile/server.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** A sandbox of personal accounts (test/helpers/user-world.ts), stopped after the test. */
async function start(seed: string, options: SandboxOptions = {}): Promise<RunningSandbox> {
  world = await startSandbox({ port: 0, seed, ...options });
  return world;
}

const PROTECTED = `    owner_type: user
    branch_protection:
      main:
        enforce_admins: true
        required_pull_request_reviews: { required_approving_review_count: 1 }
        required_status_checks: null
        restrictions: null
`;

/** A workspace whose `github` target is the sandbox, signed in as `credential` says. */
function workspace(url: string, globs: string[], credential: string): string {
  return appKeyWorkspace(
    `    base_url: "${url}"\n${credential}`,
    globs.map((glob) => `  - name: ${glob}\n${PROTECTED}`).join(""),
  );
}

const TOKEN = "    token_env: GITHUB_TOKEN\n";
const APP = `    app_id: ${APP_ID}\n    private_key_file: app.pem\n`;

/** The repositories a plan's changes are about, as `owner/name`. */
async function plannedRepos(cwd: string, env: Record<string, string>): Promise<string[]> {
  const planned = await runInProcess(["plan", "--format", "json"], { cwd, env });
  expect(planned.stderr).toBe("");
  const changes = (JSON.parse(planned.stdout) as { changes: Array<{ address: string }> }).changes;
  const repos = new Set(changes.map((change) => change.address.split("/").slice(1, 3).join("/")));
  return [...repos].sort();
}

/**
 * `alice/*` expanded against a service that knows no organization alice and will not name the
 * token (a workflow's GITHUB_TOKEN), and answers `GET /installation/repositories` with `page`.
 */
async function expandForWorkflowToken(page: unknown) {
  const service = await hostile((req, res) => {
    if (req.url?.startsWith("/installation/repositories")) answer(res, 200, json, page);
    else if (req.url === "/user") {
      answer(res, 403, json, { message: "Resource not accessible by integration" });
    } else answer(res, 404, json, { message: "Not Found" });
  });
  const loaded = loadDesiredState([workspace(service.url, ["alice/*"], TOKEN)], {
    cwd: "/",
    env: {},
  });
  if (!loaded.ok) throw new Error("the config is valid");
  const { client } = clientOf(service.url);
  return expandRepositories(
    loaded.state,
    new Map([["github", new ResourceReader("github", client)]]),
  );
}

describe("a glob over a personal account", () => {
  it("plans the account's private repositories with the account's own token", async () => {
    const sb = await start(userWorldFile());
    const cwd = workspace(sb.url, ["alice/*"], TOKEN);
    expect(await plannedRepos(cwd, { GITHUB_TOKEN: ALICE })).toEqual([
      "alice/notes",
      "alice/site",
      "alice/wiki",
    ]);
  });

  it("plans exactly the repositories an App installed on the account covers", async () => {
    const sb = await start(userWorldFile(["alice/notes", "alice/site"]));
    const cwd = workspace(sb.url, ["alice/*"], APP);
    expect(await plannedRepos(cwd, {})).toEqual(["alice/notes", "alice/site"]);
  });

  it("plans only the account's public repositories with another user's token", async () => {
    const sb = await start(userWorldFile());
    const cwd = workspace(sb.url, ["alice/*"], TOKEN);
    expect(await plannedRepos(cwd, { GITHUB_TOKEN: BOB })).toEqual(["alice/site"]);
  });

  it("asks GET /user once for every glob over users, whatever their owners", async () => {
    const seen: RecordedRequest[] = [];
    const sb = await start(userWorldFile(), { onRequest: (request) => seen.push(request) });
    const cwd = workspace(sb.url, ["alice/*", "alice/n*", "bob/*"], TOKEN);
    expect(await plannedRepos(cwd, { GITHUB_TOKEN: ALICE })).toEqual([
      "alice/notes",
      "alice/site",
      "alice/wiki",
      "bob/blog",
    ]);
    expect(seen.filter((request) => request.path === "/user")).toHaveLength(1);
  });

  it("exports the account's private repositories with the account's own token", async () => {
    const sb = await start(userWorldFile());
    const cwd = workspace(sb.url, ["alice/*"], TOKEN);
    const exported = await runInProcess(["export", "--repo", "alice/*"], {
      cwd,
      env: { GITHUB_TOKEN: ALICE },
    });
    expect([exported.code, exported.stderr]).toEqual([0, ""]);
    expect(exported.stdout).toContain(
      "# alice/* selects alice/notes, alice/site, alice/wiki: what all of them share",
    );
  });

  it("reports an account that does not exist with the user listing that answered 404", async () => {
    const sb = await start(userWorldFile());
    const cwd = workspace(sb.url, ["nobody/*"], TOKEN);
    const planned = await runInProcess(["plan"], { cwd, env: { GITHUB_TOKEN: ALICE } });
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      "error: GET /users/nobody/repos → 404: account nobody was not found",
    );
  });

  it("names the request when the installation's listing is not in GitHub's shape", async () => {
    const expansion = await expandForWorkflowToken({ total_count: 1, repositories: { name: "n" } });
    expect(expansion.repos).toEqual([]);
    expect(expansion.errors.map(({ error }) => error)).toEqual([
      {
        message: 'expected an object with a list under "repositories" in the response',
        request: "GET /installation/repositories?per_page=100",
        status: 200,
      },
    ]);
  });

  it("keeps the owner's repositories of the installation's listing, archived ones left out", async () => {
    const expansion = await expandForWorkflowToken({
      total_count: 3,
      repositories: [
        { name: "notes", owner: { login: "Alice" } },
        { name: "attic", owner: { login: "alice" }, archived: true },
        { name: "api", owner: { login: "acme" } },
      ],
    });
    expect(expansion.errors).toEqual([]);
    expect(expansion.repos.map((repo) => `${repo.owner}/${repo.name}`)).toEqual(["Alice/notes"]);
  });
});
