import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { actionsWorldFile } from "../helpers/actions-world.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

/**
 * Secrets end to end against the sandbox, which opens every sealed value it is sent and keeps only
 * its digest (GET /_sandbox/secrets): a secret is created sealed under the right key, arrives as the
 * environment variable's value, re-plans as no change, and is sent again only when asked.
 */

const CONFIG = `version: 1
repositories:
  - name: acme/api
    secrets:
      actions: { DEPLOY_KEY: "\${DEPLOY_KEY}" }
      dependabot: { NPM_TOKEN: "\${NPM_TOKEN}" }
      environments:
        production:
          actions: { PROD_KEY: "\${PROD_KEY}" }
organizations:
  - name: acme
    secrets:
      actions:
        ORG_TOKEN: { value: "\${ORG_TOKEN}", visibility: selected, selected_repositories: [api] }
`;

const FIRST = {
  DEPLOY_KEY: "deploy-key-1",
  NPM_TOKEN: "npm-token-1",
  PROD_KEY: "prod-key-1",
  ORG_TOKEN: "org-token-1",
};
const SECOND = {
  DEPLOY_KEY: "deploy-key-2",
  NPM_TOKEN: "npm-token-2",
  PROD_KEY: "prod-key-2",
  ORG_TOKEN: "org-token-2",
};

const WHERE: Record<keyof typeof FIRST, string> = {
  DEPLOY_KEY: "/repos/acme/api/actions/secrets",
  NPM_TOKEN: "/repos/acme/api/dependabot/secrets",
  PROD_KEY: "/repos/acme/api/environments/production/secrets",
  ORG_TOKEN: "/orgs/acme/actions/secrets",
};

const digest = (value: string) => createHash("sha256").update(value).digest("hex");

let world: RunningSandbox;
let config: string;
const writes: RecordedRequest[] = [];

beforeEach(async () => {
  writes.length = 0;
  world = await sandbox({
    seed: actionsWorldFile(),
    onRequest: (request) => {
      if (request.method !== "GET") writes.push(request);
    },
  });
  config = configFile(CONFIG);
});
afterEach(async () => {
  await world.stop();
});

function run(argv: string[], env: Record<string, string>) {
  return runInProcess([...argv, "-c", config, "--sandbox-url", world.url], {
    env,
    cwd: dirname(config),
  });
}

/** What the sandbox holds: each managed secret's digest, by name. */
async function held(): Promise<Record<string, string>> {
  const answer = (await (await fetch(`${world.url}/_sandbox/secrets`)).json()) as {
    secrets: Array<{ at: string; name: string; sha256: string }>;
  };
  return Object.fromEntries(
    Object.entries(WHERE).map(([name, at]) => [
      name,
      answer.secrets.find((secret) => secret.at === at && secret.name === name)?.sha256 ?? "none",
    ]),
  );
}

const digestsOf = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, digest(value)]));

const secretPuts = () =>
  writes
    .filter((request) => request.method === "PUT" && /\/secrets\/[^/]+$/.test(request.path))
    .map((request) => request.path.split("/").pop());

describe("secrets", () => {
  it("are created sealed, arrive as the variables' values and re-plan as no change", async () => {
    const planned = await run(["plan", "--format", "json", "--out", "plan.json"], FIRST);
    expect(planned.code).toBe(2);
    const saved = readFileSync(join(dirname(config), "plan.json"), "utf8");
    for (const value of Object.values(FIRST)) {
      expect(planned.stdout).not.toContain(value);
      expect(saved).not.toContain(value);
    }
    // The plan holds the variable's name and where the key is read, nothing more.
    expect(JSON.parse(saved).changes[0].requests[0].body).toEqual({
      encrypted_value: {
        $sealed: { secret: "DEPLOY_KEY", key: "/repos/acme/api/actions/secrets/public-key" },
      },
      key_id: { $key_id: "/repos/acme/api/actions/secrets/public-key" },
    });

    const applied = await run(["apply", "--auto-approve"], FIRST);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(await held()).toEqual(digestsOf(FIRST));
    // Every value went out sealed: base64 of a box, never the value itself.
    for (const request of writes.filter((each) => each.method === "PUT")) {
      const body = request.body as { encrypted_value?: string; key_id?: string };
      if (body.encrypted_value === undefined) continue;
      expect(body.encrypted_value).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(Object.values(FIRST)).not.toContain(body.encrypted_value);
      expect(body.key_id).toMatch(/^\d+$/);
    }
    const sharing = (await (
      await fetch(`${world.url}/orgs/acme/actions/secrets/ORG_TOKEN/repositories`, {
        headers: { Authorization: "Bearer sandbox-admin" },
      })
    ).json()) as { repositories: Array<{ name: string }> };
    expect(sharing.repositories.map((repo) => repo.name)).toEqual(["api"]);

    const again = await run(["plan"], FIRST);
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining("No changes.")]);
  });

  it("are not sent again when the variable changes, only when asked, by name or all", async () => {
    await run(["apply", "--auto-approve"], FIRST);
    writes.length = 0;

    // A secret is compared by presence: a new value is invisible to a plan.
    const unseen = await run(["plan"], SECOND);
    expect(unseen.code).toBe(0);
    expect(await held()).toEqual(digestsOf(FIRST));

    const one = await run(["apply", "--auto-approve", "--rotate-secret", "deploy_key"], SECOND);
    expect([one.code, one.stderr]).toEqual([0, ""]);
    expect(secretPuts()).toEqual(["DEPLOY_KEY"]);
    expect(await held()).toEqual({ ...digestsOf(FIRST), DEPLOY_KEY: digest(SECOND.DEPLOY_KEY) });

    // Named by the variable a value is read from, in a saved plan that records it.
    writes.length = 0;
    const saved = await run(
      ["plan", "--rotate-secret", "ORG_TOKEN", "--out", "rotate.json"],
      SECOND,
    );
    expect(saved.code).toBe(2);
    expect(
      JSON.parse(readFileSync(join(dirname(config), "rotate.json"), "utf8")).rotate_secret,
    ).toEqual(["ORG_TOKEN"]);
    const fromFile = await run(["apply", "rotate.json", "--auto-approve"], SECOND);
    expect([fromFile.code, fromFile.stderr]).toEqual([0, ""]);
    expect(secretPuts()).toEqual(["ORG_TOKEN"]);

    writes.length = 0;
    const all = await run(["apply", "--auto-approve", "--rotate-secrets"], SECOND);
    expect([all.code, all.stderr]).toEqual([0, ""]);
    expect(secretPuts().sort()).toEqual(["DEPLOY_KEY", "NPM_TOKEN", "ORG_TOKEN", "PROD_KEY"]);
    expect(await held()).toEqual(digestsOf(SECOND));
    expect((await run(["plan"], SECOND)).code).toBe(0);
  });

  it("apply refuses before sending anything when a variable a secret is read from is not set", async () => {
    const { DEPLOY_KEY: _unset, ...rest } = FIRST;
    const refused = await run(["apply", "--auto-approve"], rest);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("DEPLOY_KEY");
    expect(writes).toEqual([]);
  });
});
