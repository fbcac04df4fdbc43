import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { repoRoot } from "../helpers/cli.js";

/**
 * The GitLab CI/CD component (templates/forgeplan.yml) as GitLab reads one: a `spec: inputs:`
 * header, `---`, then the jobs, every `$[[ inputs.NAME ]]` a declared input; and the include
 * docs/gitlab-ci.md shows, whose inputs the component declares. The job script is run by sh with
 * the inputs interpolated, npx replaced by printf, to see the command line forgeplan gets.
 */

const text = readFileSync(join(repoRoot, "templates/forgeplan.yml"), "utf8");
const documents = YAML.parseAllDocuments(text);
const spec = documents[0]?.toJS() as {
  spec: { inputs: Record<string, { default?: string; description: string }> };
};
const jobs = documents[1]?.toJS() as Record<string, Record<string, unknown>>;

function interpolate(source: string, inputs: Record<string, string>): string {
  return source.replace(/\$\[\[\s*inputs\.(\w+)\s*\]\]/g, (_, name: string) => {
    const value = inputs[name] ?? spec.spec.inputs[name]?.default;
    if (value === undefined) throw new Error(`input ${name} has no value`);
    return value;
  });
}

function commandLine(inputs: Record<string, string>): string[] {
  const script = (jobs[".forgeplan"]!.script as string[]).join("\n");
  const shell = interpolate(script, inputs).replace("npx --yes", "printf '%s\\n'");
  return execFileSync("sh", ["-c", shell], { encoding: "utf8" }).trimEnd().split("\n");
}

describe("the GitLab CI/CD component", () => {
  it("is GitLab's component layout: a spec header, then jobs using only declared inputs", () => {
    expect(documents).toHaveLength(2);
    for (const document of documents) expect(document.errors).toEqual([]);
    expect(Object.keys(spec)).toEqual(["spec"]);
    const declared = Object.keys(spec.spec.inputs);
    expect(declared).toEqual([
      "stage",
      "config",
      "target",
      "flags",
      "version",
      "image",
      "token_variable",
    ]);
    for (const input of Object.values(spec.spec.inputs)) expect(input.description).toBeTruthy();
    const used = [...text.matchAll(/\$\[\[\s*inputs\.(\w+)\s*\]\]/g)].map((match) => match[1]);
    expect(new Set(used)).toEqual(new Set(declared));
    expect(jobs["forgeplan-plan"]).toMatchObject({
      extends: ".forgeplan",
      rules: [{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }],
      allow_failure: { exit_codes: [2] },
    });
    expect(jobs["forgeplan-apply"]).toMatchObject({
      extends: ".forgeplan",
      rules: [{ if: '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' }],
      resource_group: "forgeplan",
    });
    expect(jobs["forgeplan-drift"]).toMatchObject({
      extends: ".forgeplan",
      rules: [{ if: '$CI_PIPELINE_SOURCE == "schedule"' }],
    });
    expect(jobs[".forgeplan"]).toMatchObject({
      artifacts: { reports: { terraform: "forgeplan-plan.json" } },
    });
  });

  it("runs forgeplan ci with the inputs as its flags", () => {
    expect(commandLine({})).toEqual([
      "forgeplan@latest",
      "ci",
      "--terraform-report",
      "forgeplan-plan.json",
      "--token-variable",
      "FORGEPLAN_GITLAB_TOKEN",
      "-c",
      "forgeplan.yaml",
    ]);
    expect(
      commandLine({
        config: "gitlab.yaml teams.yaml",
        target: "gitlab/acme/** gitlab/acme/api/*",
        flags: "--allow-delete --issue-labels drift,infra",
        version: "0.1.0",
      }).slice(6),
    ).toEqual([
      "-c",
      "gitlab.yaml",
      "-c",
      "teams.yaml",
      "--target",
      "gitlab/acme/**",
      "--target",
      "gitlab/acme/api/*",
      "--allow-delete",
      "--issue-labels",
      "drift,infra",
    ]);
  });

  it("is included as docs/gitlab-ci.md shows, with inputs it declares", () => {
    const docs = readFileSync(join(repoRoot, "docs/gitlab-ci.md"), "utf8");
    const block = /## Include the component[\s\S]*?```yaml\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(block).toBeDefined();
    const include = YAML.parse(block!) as {
      include: Array<{ component: string; inputs: Record<string, string> }>;
    };
    const [entry] = include.include;
    // `<fqdn>/<project path>/<component name>@<version>`: the name is the template's file name.
    expect(entry!.component).toMatch(/^\$CI_SERVER_FQDN\/[\w./-]+\/forgeplan@[\w.~-]+$/);
    for (const name of Object.keys(entry!.inputs)) {
      expect(Object.keys(spec.spec.inputs)).toContain(name);
    }
    expect(commandLine(entry!.inputs)).toContain("--allow-delete");
  });
});
