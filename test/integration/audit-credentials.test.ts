import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { ForgeClient } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import { auditGists } from "../../src/resources/gist/plan.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appKeyWorkspace, appSeedFile } from "../helpers/apps.js";
import { runInProcess } from "../helpers/cli.js";
import { sandbox } from "../helpers/sandbox.js";

/**
 * The audits that read a user's things (gists, migrations) with a credential that is not a user:
 * each is one error naming the request and what it needs, never an audit of nothing and never an
 * audit of someone else's gists.
 */

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

function readerOf(url: string, token: string | undefined): ResourceReader {
  const client = new ForgeClient({
    baseUrl: url,
    kind: "repository",
    ...(token === undefined ? {} : { token: new Secret(token, "TEST_TOKEN") }),
    writeIntervalMs: 0,
  });
  return new ResourceReader("github", client);
}

describe("audits signed in as a GitHub App installation", () => {
  it("say in one line per audit that a user's (or an owner's) token is needed", async () => {
    world = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey), generate: 0 });
    const dir = appKeyWorkspace(
      `    app_id: ${APP_ID}\n    private_key_file: app.pem\n`,
      "  - name: acme/web\n",
    );
    const config = join(dir, "forgeplan.yaml");
    appendFileSync(
      config,
      "audits:\n  gists: {}\n  migrations:\n    - { user: true, id: 1 }\n    - { org: acme, id: 2 }\n",
    );
    const result = await runInProcess(["plan", "-c", config, "--sandbox-url", world.url]);
    expect(result.code).toBe(1);
    const errors = result.stdout.split("\n").filter((line) => line.includes("error:"));
    expect(errors).toEqual([
      "    error: GET /user → 403: Resource not accessible by integration; the gist audit reads the gists of the token's user (GET /gists): it needs a user's token, not an App installation's (nor a workflow's GITHUB_TOKEN)",
      "    error: GET /user/migrations/1 → 403: Resource not accessible by integration; a user migration is read with its user's token, not an App installation's (nor a workflow's GITHUB_TOKEN)",
      "    error: GET /orgs/acme/migrations/2 → 403: Resource not accessible by integration; an organization migration is read with the token of an owner of acme, not an App installation's",
    ]);
  });
});

describe("the gist audit", () => {
  it("lists nothing without a user behind the request, where GET /gists would list everyone's public gists", async () => {
    const sb = await sandbox();
    const before = sb.stats().requests_total;
    const changes = await auditGists(readerOf(sb.url, undefined), {});
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      address: "github/gists/gist/*",
      action: "no-op",
      error: { request: "GET /user", status: 401 },
    });
    expect(changes[0]!.error!.message).toContain("it needs a user's token");
    // Only GET /user was sent: the anonymous listing of every public gist was never asked for.
    expect(sb.stats().requests_total - before).toBe(1);
  });
});
