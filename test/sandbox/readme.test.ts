import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { call, sandbox } from "./helpers.js";

const README_URL = "http://127.0.0.1:18787";
// Asynchronous, because the sandbox answering these requests runs in this process.
const run = promisify(execFile);

function sandboxSection(): string {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf("## The sandbox\n");
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

function codeBlocks(text: string, language: string): string[] {
  const pattern = new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g");
  return [...text.matchAll(pattern)].map((match) => match[1] ?? "");
}

describe("the README's sandbox section", () => {
  it("has curl examples that answer the statuses it states, in order", async () => {
    const sb = await sandbox();
    const examples = codeBlocks(sandboxSection(), "sh")
      .flatMap((block) => block.split("\n"))
      .filter((line) => line.startsWith("curl "));
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const line of examples) {
      const [command = "", expected] = line.split(/\s+# → /);
      const script = `${command.replaceAll(README_URL, sb.url)} -o /dev/null -w '%{http_code}'`;
      const { stdout: status } = await run("sh", ["-c", script], { encoding: "utf8" });
      expect(`${status} ${command}`).toBe(`${expected?.slice(0, 3)} ${command}`);
    }
  });

  it("documents a seed file that loads", async () => {
    const [yaml] = codeBlocks(sandboxSection(), "yaml");
    const file = join(mkdtempSync(join(tmpdir(), "forgeplan-readme-")), "world.yaml");
    writeFileSync(file, yaml ?? "");
    const sb = await sandbox({ seed: file });
    const answer = await call(sb, "PATCH", "/repos/tiny/service/hooks/1", {
      token: "alice-token",
      body: { active: false },
    });
    expect(answer.status).toBe(403);
    const protection = await call(sb, "GET", "/repos/tiny/service/branches/main/protection", {
      token: "alice-token",
    });
    expect(protection.body.required_status_checks.checks).toEqual([
      { context: "ci/build", app_id: 7 },
    ]);
    const issue = await call(sb, "GET", "/repos/tiny/service/issues/1", { token: "alice-token" });
    expect(issue.body.labels.map((label: { name: string }) => label.name)).toEqual([
      "bug",
      "needs-triage",
    ]);
    const policies = await call(
      sb,
      "GET",
      "/repos/tiny/service/environments/production/deployment-branch-policies",
      { token: "alice-token" },
    );
    expect(policies.body.total_count).toBe(2);
  });
});
