import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { call, sandbox } from "./helpers.js";

// Its curl examples run, with the statuses they note, in test/integration/docs-commands.test.ts.
function codeBlocks(text: string, language: string): string[] {
  const pattern = new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g");
  return [...text.matchAll(pattern)].map((match) => match[1] ?? "");
}

describe("docs/sandbox.md", () => {
  it("documents a seed file that loads", async () => {
    const page = readFileSync(join(repoRoot, "docs", "sandbox.md"), "utf8");
    const [yaml] = codeBlocks(page, "yaml");
    const file = join(mkdtempSync(join(tmpdir(), "forgeplan-docs-")), "world.yaml");
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
