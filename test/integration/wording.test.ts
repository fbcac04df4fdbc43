import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { sandbox } from "../sandbox/helpers.js";

/** What a new user trips over when the words and the codes disagree (issue #35, item 7). */

function workspace(config: string): string {
  const cwd = mkdtempSync(join(tmpdir(), "forgeplan-wording-"));
  writeFileSync(join(cwd, "forgeplan.yaml"), config);
  return cwd;
}

describe("help and flags", () => {
  it("version --help explains the command instead of printing the version", async () => {
    const help = await runInProcess(["version", "--help"]);
    expect(help.stdout).toContain("usage: forgeplan version");
    expect(help.code).toBe(0);
    const version = await runInProcess(["version"]);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const extra = await runInProcess(["version", "now"]);
    expect(extra.code).toBe(1);
  });

  it.each(["export", "migrate"])(
    "%s, which only reads, neither lists nor takes --write-interval",
    async (command) => {
      const help = await runInProcess([command, "--help"]);
      expect(help.stdout).not.toContain("--write-interval");
      const given = await runInProcess([command, "--write-interval", "5"]);
      expect(given.code).toBe(1);
      expect(given.stderr).toContain("unknown option --write-interval");
    },
  );

  it("a --sandbox-url where nothing answers fails at once, saying so", async () => {
    const cwd = workspace("version: 1\nrepositories:\n  - name: acme/api\n");
    // A port that was free a moment ago: nothing listens there now.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    const result = await runInProcess(["plan", "--sandbox-url", url], { cwd });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `forgeplan: plan: no sandbox answers at ${url}: connection refused (ECONNREFUSED); start one with 'npx forgeplan sandbox --port N', or use --sandbox\n`,
    );
  });
});

describe("configuration errors", () => {
  it("a hook's unknown key offers no retired key", async () => {
    const cwd = workspace(
      "version: 1\nrepositories:\n  - name: acme/api\n    webhooks:\n      hooks:\n        - { url: https://h.example, colour: red }\n",
    );
    const result = await runInProcess(["validate"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown key "colour"');
    expect(result.stderr).not.toContain("secret_version");
  });

  it("a misindented key is pointed at, on a line of the file", async () => {
    const cwd = workspace(
      "version: 1\nrepositories:\n  - name: acme/api\n    settings:\n      description: x\n     has_wiki: true\n",
    );
    const result = await runInProcess(["validate"], { cwd });
    expect(result.stderr.split("\n")[0]).toBe(
      "forgeplan.yaml:6:6: YAML: All mapping items must start at the same column",
    );
    const open = workspace("version: 1\nrepositories:\n  - { name: acme/api\n");
    const unclosed = await runInProcess(["validate"], { cwd: open });
    expect(unclosed.stderr).toMatch(/^forgeplan\.yaml:3:\d+: YAML: /);
  });

  it("refuses an environment reference in a plain variable, unless marked public", async () => {
    const cwd = workspace(
      'version: 1\nrepositories:\n  - name: acme/api\n    variables:\n      items: { NPM: "${NPM_TOKEN}", REGION: "${REGION:public}" }\n',
    );
    const result = await runInProcess(["validate"], { cwd, env: { REGION: "eu" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "forgeplan.yaml:5:21: repositories[0].variables.items.NPM: ${NPM_TOKEN} would publish a value of the environment",
    );
    expect(result.stderr).not.toContain("REGION");
  });
});

describe("plans", () => {
  it("an organization hook to create shows no branch filter, which organization hooks lack", async () => {
    const world = await sandbox();
    const cwd = workspace(
      'version: 1\norganizations:\n  - name: acme\n    webhooks:\n      hooks:\n        - { url: "https://new.acme.example/h", events: [repository] }\n',
    );
    const planned = await runInProcess(["plan", "--sandbox-url", world.url], { cwd });
    expect(planned.stdout).toContain("+ github/acme/webhook/https://new.acme.example/h");
    expect(planned.stdout).not.toContain("branch_filter");
    expect(planned.code).toBe(2);
  });

  it("removing invitations reads alike whether they are pending or expired", async () => {
    const world = await sandbox();
    const cwd = workspace(
      "version: 1\nrepositories:\n  - name: acme/api\n    access:\n      mode: authoritative\n      users: { octo-dev: write, mona: triage }\n",
    );
    const planned = await runInProcess(["plan", "--sandbox-url", world.url], { cwd });
    expect(planned.stdout).toContain('- invitation: "write (pending)"');
    expect(planned.stdout).toContain('- invitation: "admin (expired)"');
    expect(planned.stdout).not.toContain('- role: "write"');
  });

  it("a no-change plan says a note shared by unchanged resources once", async () => {
    const world = await sandbox();
    const cwd = workspace(
      'version: 1\nrepositories:\n  - name: acme/api\n    secrets:\n      actions: { FIRST: "${ONE}", SECOND: "${TWO}", THIRD: "${THREE}" }\n',
    );
    const env = { ONE: "first-secret", TWO: "second-secret", THREE: "third-secret" };
    const at = ["--sandbox-url", world.url];
    const applied = await runInProcess(["apply", ...at, "--auto-approve"], { cwd, env });
    expect(applied.code).toBe(0);
    const planned = await runInProcess(["plan", ...at], { cwd, env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain("3 resources are unchanged, each with the same note:");
    expect(planned.stdout.split("could not be verified").length - 1).toBe(1);
    for (const name of ["FIRST", "SECOND", "THIRD"]) {
      expect(planned.stdout).toContain(`    github/acme/api/secret/${name}\n`);
    }
    // The JSON budget's least time is hundredths of a minute, never a float's tail.
    const json = await runInProcess(["plan", ...at, "--format", "json"], { cwd, env });
    const plan = JSON.parse(json.stdout) as { budget: { least_time: { minutes: number } } };
    expect(String(plan.budget.least_time.minutes)).toMatch(/^\d+(\.\d{1,2})?$/);
  });
});
