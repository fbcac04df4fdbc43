import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { formatConfigError, type ScopedEntry } from "../../src/config/index.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import { repoRoot } from "../helpers/cli.js";

const env = {
  CI_HOOK_SECRET: "example-secret",
  CI_HOOK_AUTH: "Bearer example",
  ACME_NPM_TOKEN: "example-token",
  // examples/gitlab-variables.yaml
  NPM_TOKEN: "example_npm_token",
  NPM_TOKEN_PRODUCTION: "example_npm_token_production",
  SIGNING_KEY: "example_signing_key",
  DEPLOY_TOKEN: "example_deploy_token",
  DEPLOY_TOKEN_PRODUCTION: "example_deploy_token_production",
};
const examples = readdirSync(`${repoRoot}examples`).filter((name) => /\.ya?ml$/.test(name));

function load(name: string) {
  const result = loadDesiredState([`examples/${name}`], { cwd: repoRoot, env });
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  return result.state;
}

describe("examples", () => {
  it("include the demo and at least two more", () => {
    expect(examples).toEqual(
      expect.arrayContaining(["forgeplan.yaml", "org-baseline.yaml", "planning-cleanup.yaml"]),
    );
  });

  it.each(examples)("%s validates and points editors at the schema", (name) => {
    expect(readFileSync(`${repoRoot}examples/${name}`, "utf8")).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/schema\/forgeplan\.schema\.json\n/,
    );
    expect(load(name).files).toEqual([`examples/${name}`]);
  });

  it.each(examples)(
    "%s reads the same in YAML 1.1 tools: no bare timestamp that they would turn into a date",
    (name) => {
      const dates: string[] = [];
      const walk = (value: unknown, path: string): void => {
        if (value instanceof Date) dates.push(path);
        else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
        else if (value !== null && typeof value === "object") {
          for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`);
        }
      };
      const text = readFileSync(`${repoRoot}examples/${name}`, "utf8");
      walk(YAML.parse(text, { version: "1.1", merge: true }), "$");
      expect(dates).toEqual([]);
    },
  );

  it("the baseline and the planning clean-up validate together, as one desired state", () => {
    const result = loadDesiredState(
      ["examples/org-baseline.yaml", "examples/planning-cleanup.yaml"],
      {
        cwd: repoRoot,
        env,
      },
    );
    if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
    expect(result.state.targets.map((target) => `${target.name}:${target.type}`)).toEqual([
      "github:github",
      "gitlab:gitlab",
    ]);
  });
});

describe("the demo config", () => {
  const state = load("forgeplan.yaml");
  const [api, web] = state.repositories;
  const protections = (entry: ScopedEntry) =>
    entry.settings.branch_protection as Record<string, unknown>;
  const section = (name: string) =>
    state.sections
      .filter((entry) => entry.section === name)
      .map(({ target, value }) => ({ target, value }));

  it("uses the default targets", () => {
    expect(state.targets.map((target) => target.name)).toEqual(["github", "gitlab"]);
  });

  it("protects acme/api main as the demo world has it, with two approvals", () => {
    expect(api!.selector).toEqual({ kind: "name", owner: "acme", repo: "api" });
    expect(protections(api!).main).toEqual({
      required_status_checks: { strict: true, checks: [{ context: "ci/build", app_id: 15368 }] },
      enforce_admins: false,
      required_pull_request_reviews: {
        dismiss_stale_reviews: true,
        require_code_owner_reviews: false,
        required_approving_review_count: 2,
      },
      restrictions: null,
    });
  });

  it("adds a protection to acme/web main", () => {
    expect(web!.selector).toEqual({ kind: "name", owner: "acme", repo: "web" });
    expect(protections(web!).main).toMatchObject({ enforce_admins: true });
  });

  it("edits webhook 1 of acme/api by its URL, adding release, with no secret", () => {
    expect(api!.settings.webhooks).toEqual({
      mode: "additive",
      hooks: [
        {
          url: "https://ci.acme.example/hooks/forge",
          events: ["push", "pull_request", "release"],
          content_type: "json",
          active: true,
        },
      ],
    });
  });

  it("removes board 2 of project 1 and related-epic link 1", () => {
    expect(
      state.projects.map(({ target, selector, settings }) => ({ target, selector, settings })),
    ).toEqual([
      {
        target: "gitlab",
        selector: { kind: "name", owner: "acme", repo: "api" },
        settings: { boards_absent: [{ name: "Legacy triage" }] },
      },
    ]);
    expect(section("groups")).toEqual([
      { target: "gitlab", value: { group: "acme", epic_links_absent: [{ epic: 1, related: 2 }] } },
    ]);
  });

  it("audits invitations, gists and migrations", () => {
    expect(api!.settings.invitations).toEqual({ allowed_invitees: ["octo-*"], max_age_days: 90 });
    expect(section("audits.gists")).toEqual([{ target: "github", value: { allow_public: false } }]);
    expect(section("audits.migrations")).toEqual([
      {
        target: "github",
        value: { org: "acme", id: 2, state: "exported", repositories: ["acme/api", "acme/web"] },
      },
    ]);
  });
});
