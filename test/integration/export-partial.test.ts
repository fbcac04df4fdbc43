import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { appKeys, appKeyWorkspace, appSeedFile } from "../helpers/apps.js";
import { runInProcess } from "../helpers/cli.js";
import { sandbox } from "../sandbox/helpers.js";

let world: RunningSandbox | undefined;
afterEach(() => {
  world = undefined;
});

/**
 * An App installation with Administration read (and the reads labels, environments, variables,
 * secrets, Pages and custom properties need) but
 * not Members, so the organization's teams cannot be read: GitHub shows a ruleset's bypass actors only
 * to who may edit it, so the rulesets of acme/api (which has one) cannot be read, and everything
 * else can.
 */
async function readOnlyApp() {
  world = await sandbox({
    seed: appSeedFile(appKeys().publicKey, {
      permissions: {
        administration: "read",
        repository_hooks: "read",
        contents: "read",
        issues: "read",
        actions: "read",
        actions_variables: "read",
        secrets: "read",
        dependabot_secrets: "read",
        pages: "read",
        organization_custom_properties: "read",
      },
    }),
    generate: 3,
  });
  const cwd = appKeyWorkspace(
    "    app_id: 4242\n    private_key_file: app.pem\n    installation_id: 77\n",
    "  - name: acme/api\n",
  );
  return { cwd, at: ["--sandbox-url", world.url] };
}

const NOT_EXPORTED =
  "# not exported: the rulesets of acme/api: GET /repos/acme/api/rulesets/2 answered 200 with a body that is not a Repository ruleset: bypass_actors is missing: the token may not edit this ruleset, so its bypass list cannot be compared";

describe("export when part of what it reads cannot be read", () => {
  it("writes every other part, names the missing one in a comment, exits 1, and plans as no change", async () => {
    const { cwd, at } = await readOnlyApp();
    const exported = await runInProcess(["export", "--repo", "acme/*", ...at], { cwd });
    expect(exported.code).toBe(1);
    expect(exported.stderr).toBe(
      'forgeplan: export: 1 part could not be read and is left out; the YAML names it in a comment starting "# not exported:"\n',
    );
    expect(exported.stdout.split("\n")).toContain(NOT_EXPORTED);
    // The other repositories, and acme/api's protections and hooks, are all there.
    for (const part of [
      "acme/repo-0001",
      "acme/repo-0003",
      "acme/web",
      "branch_protection:",
      "webhooks:",
    ]) {
      expect(exported.stdout).toContain(part);
    }
    // No repository's rulesets are hoisted onto the glob entry: it would manage acme/api's too.
    const api = exported.stdout.slice(exported.stdout.indexOf("- name: acme/api\n"));
    expect(api.slice(0, api.indexOf("\n  - name:"))).not.toContain("rulesets:");
    writeFileSync(join(cwd, "exported.yaml"), exported.stdout);
    const planned = await runInProcess(["plan", "-c", "exported.yaml", ...at], { cwd });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });

  it("goes on past the repository export --org could not read", async () => {
    const { cwd, at } = await readOnlyApp();
    const exported = await runInProcess(["export", "--org", "acme", ...at], { cwd });
    expect(exported.code).toBe(1);
    const comments = exported.stdout
      .split("\n")
      .filter((line) => line.startsWith("# not exported:"));
    // The organization's settings could be read; each of its parts the App may not read is named.
    expect(comments).toEqual([
      NOT_EXPORTED,
      ...["teams", "actions", "variables", "secrets", "rulesets", "webhooks"].map((key) =>
        expect.stringContaining(`# not exported: the ${key} of organization acme: GET /orgs/acme/`),
      ),
    ]);
    expect(exported.stdout).toContain("organizations:\n  - name: acme\n    settings:\n");
    expect(exported.stdout).toContain("acme/repo-0003");
  });

  it("writes the owner's file with the comment when exporting to a directory", async () => {
    const { cwd, at } = await readOnlyApp();
    const exported = await runInProcess(
      ["export", "--repo", "acme/*", "--out", "settings/", ...at],
      { cwd },
    );
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain("forgeplan: exported 1 file to settings/\n");
    const acme = readFileSync(join(cwd, "settings", "acme.yaml"), "utf8");
    expect(acme.split("\n")).toContain(NOT_EXPORTED);
    expect(acme).toContain("acme/repo-0002");
  });
});
