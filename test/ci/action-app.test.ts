import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appSeedFile } from "../helpers/apps.js";
import { runActionStep, tempDir } from "./helpers.js";

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

/** A workspace whose github target takes the App from the variables the Action's inputs set. */
function appWorkspace(url: string): string {
  const dir = tempDir("forgeplan-workspace-");
  writeFileSync(
    join(dir, "forgeplan.yaml"),
    [
      "version: 1",
      "targets:",
      `  github: { type: repository, base_url: "${url}", app_id: "\${GITHUB_APP_ID}", private_key_env: GITHUB_APP_PRIVATE_KEY }`,
      "repositories:",
      "  - name: acme/web",
      "    branch_protection:",
      "      main: { enforce_admins: true, required_status_checks: null, required_pull_request_reviews: null, restrictions: null }",
      "",
    ].join("\n"),
  );
  return dir;
}

describe("the Action signed in as a GitHub App", () => {
  it("plans with app-id and private-key, and masks every line of the key first", async () => {
    sandbox = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    const cwd = appWorkspace(sandbox.url);
    const key = appKeys().privateKey;
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: { command: "plan", "app-id": String(APP_ID), "private-key": key, comment: "false" },
    });
    expect(run.outputs["exit-code"]).toBe("2");
    expect(sandbox.stats().installation_tokens_issued).toBe(1);
    const lines = key.split("\n").filter((line) => line !== "");
    expect(run.log.startsWith(lines.map((line) => `::add-mask::${line}\n`).join(""))).toBe(true);
    const afterMasks = run.log.slice(lines.map((line) => `::add-mask::${line}\n`).join("").length);
    for (const line of lines.filter((line) => !line.startsWith("-----"))) {
      expect(afterMasks).not.toContain(line);
    }
    expect(afterMasks).not.toMatch(/ghs_[0-9a-f]{8}/);
  });

  it("refuses app-id without private-key in one annotation, before reading anything", async () => {
    sandbox = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    const run = await runActionStep({
      sandbox,
      cwd: appWorkspace(sandbox.url),
      inputs: { command: "plan", "app-id": String(APP_ID) },
    });
    expect(run.code).toBe(1);
    expect(run.log).toContain(
      "::error title=forgeplan::inputs 'app-id' and 'private-key' go together: give both or neither",
    );
    expect(sandbox.stats().requests_total).toBe(0);
  });
});
