import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { repoRoot } from "../helpers/cli.js";

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: unknown;
  jobs: Record<string, { steps: Step[] }>;
}

const dir = join(repoRoot, "examples/workflows");
const files = readdirSync(dir).filter((name) => name.endsWith(".yml"));
const action = YAML.parse(readFileSync(join(repoRoot, "action.yml"), "utf8")) as {
  inputs: Record<string, unknown>;
};
const ciPage = readFileSync(join(repoRoot, "docs", "ci.md"), "utf8");

describe("example workflows", () => {
  it("cover plan on pull requests, apply on merge, nightly drift and a sharded plan", () => {
    expect(files.sort()).toEqual([
      "apply-on-merge.yml",
      "nightly-drift.yml",
      "plan-on-pr.yml",
      "sharded-plan.yml",
    ]);
  });

  it.each(files)(
    "%s uses only inputs the Action declares and is documented in docs/ci.md",
    (file) => {
      const workflow = YAML.parse(readFileSync(join(dir, file), "utf8")) as Workflow;
      const ours = Object.values(workflow.jobs)
        .flatMap((job) => job.steps)
        .filter((step) => step.uses?.startsWith("forgeplan/forgeplan@"));
      expect(ours.length).toBeGreaterThan(0);
      for (const step of ours) {
        for (const input of Object.keys(step.with ?? {})) {
          expect(Object.keys(action.inputs)).toContain(input);
        }
        expect(["plan", "apply", "drift"]).toContain(step.with?.command);
      }
      expect(ciPage).toContain(`examples/workflows/${file}`);
    },
  );
});
