import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runBuilt, runInProcess } from "../helpers/cli.js";

const directory = mkdtempSync(join(tmpdir(), "forgeplan-validate-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function write(name: string, text: string): string {
  writeFileSync(join(directory, name), text);
  return name;
}

describe("forgeplan validate", () => {
  it("exits 0 on a valid config and says what it loaded", async () => {
    const result = await runInProcess(["validate", "-c", "examples/forgeplan.yaml"]);
    expect(result).toEqual({
      code: 0,
      stdout:
        "valid: examples/forgeplan.yaml (2 repository entries, 1 project entry, 0 organizations, 1 group, 0 instances, 2 audits)\n" +
        "a plan needs: GITHUB_TOKEN (token of target github, not set), GITLAB_TOKEN (token of target gitlab, not set)\n",
      stderr: "",
    });
  });

  it("checks the shape without the variables' values, then lists what a plan will need", async () => {
    write(
      "vars.yaml",
      [
        "version: 1",
        "repositories:",
        "  - name: ${REPOSITORY}",
        "    branch_protection:",
        "      main: { enforce_admins: true }",
        "    webhooks:",
        "      hooks:",
        '        - url: "https://${COLLECTOR_HOST:public}/h?t=${COLLECTOR_TOKEN}"',
        "          secret: ${HOOK_SECRET}",
        "",
      ].join("\n"),
    );
    const result = await runInProcess(["validate", "-c", "vars.yaml"], {
      cwd: directory,
      env: { COLLECTOR_HOST: "collector.example", GITHUB_TOKEN: "ghp_set_but_never_shown" },
    });
    expect(result).toEqual({
      code: 0,
      stdout:
        "valid: vars.yaml (1 repository entry, 0 project entries, 0 organizations, 0 groups, 0 instances, 0 audits)\n" +
        "a plan needs: REPOSITORY (not set), COLLECTOR_HOST, COLLECTOR_TOKEN (not set), HOOK_SECRET (not set), GITHUB_TOKEN (token of target github)\n",
      stderr: "",
    });
    const planned = await runInProcess(["plan", "-c", "vars.yaml", "--sandbox"], {
      cwd: directory,
    });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain(
      "vars.yaml:3:11: repositories[0].name: environment variable REPOSITORY is not set",
    );
  });

  it("exits 1 with every problem on its own stderr line, file:line:col: key.path: message", async () => {
    write(
      "bad.yaml",
      "version: 1\nrepositories:\n  - name: acme/api\n    branch_protection:\n      main: { enforce_admin: true }\n      dev: { required_pull_request_reviews: { required_approving_review_count: 9 } }\n",
    );
    const result = await runInProcess(["validate", "-c", "bad.yaml"], { cwd: directory });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toEqual([
      'bad.yaml:5:15: repositories[0].branch_protection.main.enforce_admin: unknown key "enforce_admin"; did you mean "enforce_admins"?',
      "bad.yaml:6:80: repositories[0].branch_protection.dev.required_pull_request_reviews.required_approving_review_count: expected at most 6, found the number 9",
      "",
    ]);
  });

  it("merges several -c files in order and reads forgeplan.yaml by default", async () => {
    write("forgeplan.yaml", "version: 1\nrepositories: [{ name: acme/api }]\n");
    write("more.yaml", "version: 1\nrepositories: [{ name: acme/web }]\n");
    const github = "a plan needs: GITHUB_TOKEN (token of target github, not set)\n";
    expect((await runInProcess(["validate"], { cwd: directory })).stdout).toBe(
      `valid: forgeplan.yaml (1 repository entry, 0 project entries, 0 organizations, 0 groups, 0 instances, 0 audits)\n${github}`,
    );
    expect(
      (
        await runInProcess(["validate", "-c", "forgeplan.yaml", "--config", "more.yaml"], {
          cwd: directory,
        })
      ).stdout,
    ).toBe(
      `valid: forgeplan.yaml, more.yaml (2 repository entries, 0 project entries, 0 organizations, 0 groups, 0 instances, 0 audits)\n${github}`,
    );
  });

  it("--print shows each merged value with the file:line and layer it came from, secrets as (sensitive)", async () => {
    write(
      "print.yaml",
      [
        "version: 1",
        "defaults:",
        "  branch_protection:",
        "    main: { enforce_admins: true }",
        "repositories:",
        "  - name: acme/api",
        "    branch_protection:",
        "      main: { allow_deletions: false }",
        "    webhooks:",
        "      hooks:",
        "        - url: https://ci.example/h",
        "          secret: ${HOOK_SECRET}",
        "",
      ].join("\n"),
    );
    const result = await runInProcess(["validate", "-c", "print.yaml", "--print"], {
      cwd: directory,
      env: { HOOK_SECRET: "do-not-print", GITHUB_TOKEN: "nor-this" },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/do-not-print|nor-this/);
    expect(result.stdout).toContain(
      [
        "github/acme/api/branch_protection/main  (print.yaml:8)",
        "  enforce_admins = true    print.yaml:4 (defaults)",
        "  allow_deletions = false  print.yaml:8 (entry)",
      ].join("\n"),
    );
    expect(result.stdout).toContain(
      [
        "github/acme/api/webhook/https://ci.example/h  (print.yaml:11)",
        '  url = "https://ci.example/h"           print.yaml:11 (entry)',
        "  secret = (sensitive) from HOOK_SECRET  print.yaml:12 (entry)",
      ].join("\n"),
    );
    expect(result.stdout).toContain(
      "target github: GitHub https://api.github.com, token from GITHUB_TOKEN (set)",
    );
  });

  it("refuses an unknown flag with one line", async () => {
    const result = await runInProcess(["validate", "--frobnicate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "forgeplan: validate: unknown option --frobnicate; see 'forgeplan validate --help'\n",
    );
  });

  it("reads the configuration from stdin with -c -, naming it <stdin> in errors", async () => {
    const demo = readFileSync(`${repoRoot}examples/forgeplan.yaml`, "utf8");
    expect(await runBuilt(["validate", "-c", "-"], { input: demo })).toEqual({
      code: 0,
      stdout:
        "valid: <stdin> (2 repository entries, 1 project entry, 0 organizations, 1 group, 0 instances, 2 audits)\n" +
        "a plan needs: GITHUB_TOKEN (token of target github, not set), GITLAB_TOKEN (token of target gitlab, not set)\n",
      stderr: "",
    });
    const bad = "version: 1\nrepositories:\n  - name: acme/api\n    bogus: 1\n";
    const refused = await runBuilt(["validate", "-c", "-"], { input: bad });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^<stdin>:4:5: repositories\[0\]\.bogus: unknown key "bogus"/);
    const planned = await runBuilt(["plan", "-c", "-", "--sandbox"], { input: demo });
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain("Plan: 1 to create, 3 to update, 2 to delete");
  });

  it("prints no more when the YAML library's debugging variables are set", async () => {
    // yaml 2 prints every token (LOG_TOKENS) and every composed document (LOG_STREAM) to stdout.
    const input = [
      "version: 1",
      "repositories:",
      "  - name: acme/api",
      "    webhooks:",
      "      hooks:",
      "        - { url: https://ci.example/hook, secret: hunter2-literal }",
      "",
    ].join("\n");
    const quiet = await runBuilt(["validate", "-c", "-"], { input });
    const debugging = await runBuilt(["validate", "-c", "-"], {
      input,
      env: { LOG_TOKENS: "1", LOG_STREAM: "1" },
    });
    expect(debugging).toEqual(quiet);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).toContain("secret: literal secrets are refused");
    expect(`${quiet.stdout}${quiet.stderr}`).not.toContain("hunter2");
  });

  it("runs as a built command", async () => {
    const result = await runBuilt(["validate", "-c", "examples/planning-cleanup.yaml"]);
    expect(result).toEqual({
      code: 0,
      stdout:
        "valid: examples/planning-cleanup.yaml (0 repository entries, 2 project entries, 0 organizations, 2 groups, 0 instances, 0 audits)\n" +
        "a plan needs: ACME_GITLAB_TOKEN (token of target gitlab, not set)\n",
      stderr: "",
    });
  });
});
