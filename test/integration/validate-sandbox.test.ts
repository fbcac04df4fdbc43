import { afterEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appKeyWorkspace, appSeedFile } from "../helpers/apps.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** What `validate` says a plan needs; undefined when it lists nothing. */
function neededLine(stdout: string): string | undefined {
  return stdout.split("\n").find((line) => / needs: /.test(line));
}

describe("validate against a sandbox", () => {
  it("lists no target token: a plan against the sandbox signs in with the sandbox's own", async () => {
    world = await sandbox();
    const result = await runInProcess([
      "validate",
      "--matches",
      "--sandbox-url",
      world.url,
      "-c",
      "examples/forgeplan.yaml",
    ]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(result.stdout).toContain("  acme/api (examples/forgeplan.yaml:13): acme/api\n");
    expect(result.stdout).not.toContain("GITHUB_TOKEN");
    expect(result.stdout).not.toContain("GITLAB_TOKEN");
    expect(neededLine(result.stdout)).toBeUndefined();
    // Without a sandbox the same files do need the targets' tokens.
    const plain = await runInProcess(["validate", "-c", "examples/forgeplan.yaml"]);
    expect(neededLine(plain.stdout)).toBe(
      "a plan needs: GITHUB_TOKEN (token of target github, not set), GITLAB_TOKEN (token of target gitlab, not set)",
    );
  });

  it("still lists the variables the files use, and an App target's key", async () => {
    world = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    const cwd = appKeyWorkspace(
      `    app_id: ${APP_ID}\n    private_key_env: SETTINGS_BOT_KEY\n`,
      [
        "  - name: acme/api",
        "    webhooks:",
        "      hooks:",
        "        - url: https://ci.acme.example/hooks/forge",
        "          secret: ${HOOK_SECRET}",
        "",
      ].join("\n"),
    );
    const result = await runInProcess(["validate", "--sandbox-url", world.url], {
      cwd,
      env: { SETTINGS_BOT_KEY: appKeys().privateKey, HOOK_SECRET: "s3cret-value" },
    });
    expect([result.code, result.stderr]).toEqual([0, ""]);
    // The sandbox's seed declares the App: it signs in as the App, with its key, there too.
    expect(neededLine(result.stdout)).toBe(
      "a plan against the sandbox needs: HOOK_SECRET, SETTINGS_BOT_KEY (App private key of target github)",
    );
  });

  it("lists nothing for a plan that reads only the sandbox, with --sandbox too", async () => {
    const path = configFile("version: 1\nrepositories:\n  - name: acme/web\n");
    const result = await runInProcess(["validate", "--sandbox", "-c", path]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(neededLine(result.stdout)).toBeUndefined();
  });
});
