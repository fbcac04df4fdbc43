import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatConfigError, loadDesiredState } from "../../src/config/index.js";
import { repoRoot } from "../helpers/cli.js";

const env = { CI_HOOK_SECRET: "example-secret", CI_HOOK_AUTH: "Bearer example" };
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
      "github:repository",
      "gitlab:planning",
    ]);
  });
});

describe("the demo config", () => {
  const state = load("forgeplan.yaml");
  const [api, web] = state.repositories;

  it("uses the default targets", () => {
    expect(state.targets.map((target) => target.name)).toEqual(["github", "gitlab"]);
  });

  it("protects acme/api main as the demo world has it, with two approvals", () => {
    expect(api!.selector).toEqual({ kind: "name", owner: "acme", repo: "api" });
    expect(api!.branchProtection.main).toEqual({
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
    expect(web!.branchProtection.main).toMatchObject({ enforce_admins: true });
  });

  it("edits webhook 1 of acme/api by its URL, adding release, with no secret", () => {
    expect(api!.webhooks!.mode).toBe("additive");
    expect(api!.webhooks!.hooks.map(({ origin: _, ...hook }) => hook)).toEqual([
      {
        url: "https://ci.acme.example/hooks/forge",
        events: ["push", "pull_request", "release"],
        content_type: "json",
        active: true,
      },
    ]);
  });

  it("removes board 2 of project 1 and related-epic link 1", () => {
    expect(
      state.projects.map(({ project, boardsAbsent, target }) => ({
        project,
        boardsAbsent,
        target,
      })),
    ).toEqual([
      { project: "acme/api", boardsAbsent: [{ name: "Legacy triage" }], target: "gitlab" },
    ]);
    expect(state.groups.map(({ group, epicLinksAbsent }) => ({ group, epicLinksAbsent }))).toEqual([
      { group: "acme", epicLinksAbsent: [{ epic: 1, related: 2 }] },
    ]);
  });

  it("audits invitations, gists and migrations", () => {
    expect(api!.invitations).toEqual({
      allowedInvitees: ["octo-*"],
      maxAgeDays: 90,
      reportExpired: true,
    });
    expect(state.gists.map(({ origin: _, ...gist }) => gist)).toEqual([
      { target: "github", allowPublic: false },
    ]);
    expect(state.migrations.map(({ origin: _, ...migration }) => migration)).toEqual([
      {
        target: "github",
        owner: { org: "acme" },
        id: 2,
        states: ["exported"],
        repositories: ["acme/api", "acme/web"],
      },
    ]);
  });
});
