import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { demoWorld, type RunningSandbox } from "../../src/sandbox/index.js";
import { type CliResult, runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

const TOKEN = "ghp_tokenValue7fQ2zX9";
const WRONG_TOKEN = "ghp_wrongToken3kD8mN1";
const HOOK_SECRET = "whsec_hookSecret4pL6";
const AUTH_HEADER = "Bearer authHeader9vR2";
const SECRETS = [TOKEN, WRONG_TOKEN, HOOK_SECRET, AUTH_HEADER, "authHeader9vR2"];

let world: RunningSandbox;
let dir: string;
beforeEach(async () => {
  // The admin's token is a real-looking secret here, sent from the environment like a real run's.
  const seed = configFile(
    JSON.stringify({
      ...demoWorld,
      users: demoWorld.users?.map((user) =>
        user.login === "octo-admin" ? { ...user, token: TOKEN } : user,
      ),
    }),
    "seed.yaml",
  );
  dir = dirname(seed);
  world = await sandbox({ seed });
});
afterEach(async () => {
  await world.stop();
});

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

it("keeps tokens, webhook secrets and authorization headers out of every output and file", async () => {
  const config = join(dir, "forgeplan.yaml");
  const yaml = `version: 1
targets:
  github: { type: repository, base_url: "${world.url}", token_env: GH_TOKEN }
repositories:
  - name: acme/web
    webhooks:
      hooks:
        - url: https://deploy.acme.example/hook
          events: [deployment]
          secret: \${HOOK_SECRET}
          authorization_header: \${HOOK_AUTH}
  - name: acme/api
    webhooks:
      hooks:
        - url: https://ci.acme.example/hooks/forge
          events: [push]
          secret: \${HOOK_SECRET}
`;
  writeFileSync(config, yaml);
  const env = { GH_TOKEN: TOKEN, HOOK_SECRET, HOOK_AUTH: AUTH_HEADER };
  const common = ["-c", config, "--cache", join(dir, "cache"), "--write-interval", "0"];
  const plan = join(dir, "plan.json");
  const runs: CliResult[] = [];
  const run = async (argv: string[], environment: Record<string, string> = env) => {
    const result = await runInProcess(argv, { env: environment, cwd: dir });
    runs.push(result);
    return result;
  };

  for (const format of ["text", "markdown", "json"]) {
    expect((await run(["plan", ...common, "--format", format, "--out", plan])).code).toBe(2);
  }
  const saved = JSON.parse(readFileSync(plan, "utf8")) as Plan;
  const create = saved.changes.find((c) => c.scope === "acme/web");
  expect(create?.requests[0]?.body).toMatchObject({
    config: { secret: { $secret: "HOOK_SECRET" } },
  });
  // GitHub's create body is closed: the spec's authorization header is set on the created hook.
  expect(create?.requests[1]).toEqual({
    method: "PATCH",
    path: "/repos/acme/web/hooks/{created.id}",
    body: { authorization_header: { $secret: "HOOK_AUTH" } },
  });

  const applied = await run(["apply", plan, ...common, "--auto-approve", "--format", "json"]);
  expect(applied.code).toBe(0);
  // The secret was really sent: the service stores it (and masks it when read).
  const hooks = await fetch(`${world.url}/repos/acme/web/hooks`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  expect(await hooks.json()).toMatchObject([
    { config: { secret: "********" }, authorization_header: "********" },
  ]);
  expect((await run(["plan", ...common])).code).toBe(0);
  expect((await run(["apply", ...common, "--auto-approve"])).code).toBe(0);
  // A token the service refuses: the error names the request and status, never the token.
  const refused = await run(["plan", ...common], { ...env, GH_TOKEN: WRONG_TOKEN });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe(
    "forgeplan: plan: target 'github' cannot be used: GET /rate_limit → 401 Bad credentials\n",
  );

  const files = filesUnder(dir).filter((path) => !path.endsWith("seed.yaml"));
  expect(files.some((path) => path.includes("cache"))).toBe(true);
  const written = files.map((path) => ({ path, text: readFileSync(path, "utf8") }));
  const streams = runs.flatMap((result, index) => [
    { path: `run ${index} stdout`, text: result.stdout },
    { path: `run ${index} stderr`, text: result.stderr },
  ]);
  for (const { path, text } of [...streams, ...written]) {
    for (const secret of SECRETS) {
      expect(text.includes(secret), `${secret} in ${path}`).toBe(false);
    }
  }
});
