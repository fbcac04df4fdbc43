import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

const at = () => ["--sandbox-url", world.url];

function changes(stdout: string): Record<string, string> {
  const plan = JSON.parse(stdout) as Plan;
  return Object.fromEntries(
    plan.changes.map((change) => [change.address, change.error?.message ?? change.action]),
  );
}

const protectsMain = (where: string) => `version: 1
repositories:
  - name: acme/*
    where: ${where}
    branch_protection:
      main:
        enforce_admins: true
        required_status_checks: null
        required_pull_request_reviews: null
        restrictions: null
`;

describe("repositories selected by custom property", () => {
  it("plans, applies and re-plans only the repositories whose properties match", async () => {
    const config = configFile(protectsMain("{ properties: { team: web } }"));
    const planned = await runInProcess(["plan", "-c", config, ...at(), "--format", "json"]);
    expect(planned.stderr).toBe("");
    expect(changes(planned.stdout)).toEqual({ "github/acme/web/branch_protection/main": "create" });
    const text = await runInProcess(["plan", "-c", config, ...at()]);
    expect(text.stdout).toContain(`note: selected by acme/* where team=web (${config}:3)`);

    const applied = await runInProcess(["apply", "-c", config, ...at(), "--auto-approve"]);
    expect(applied.code).toBe(0);
    expect((await runInProcess(["plan", "-c", config, ...at()])).code).toBe(0);

    // The selection follows the service: a repository given the property is selected next time.
    await call(world, "PATCH", "/orgs/acme/properties/values", {
      body: {
        repository_names: ["api"],
        properties: [{ property_name: "team", value: "web" }],
      },
    });
    const moved = await runInProcess(["plan", "-c", config, ...at(), "--format", "json"]);
    expect(changes(moved.stdout)).toEqual({
      "github/acme/api/branch_protection/main": "update",
      "github/acme/web/branch_protection/main": "no-op",
    });
  });

  it("matches any listed value, and a required property's default where none is set", async () => {
    const config = configFile(protectsMain("{ properties: { TIER: [standard, gold] } }"));
    const planned = await runInProcess(["plan", "-c", config, ...at(), "--format", "json"]);
    expect(changes(planned.stdout)).toEqual({ "github/acme/web/branch_protection/main": "create" });
  });

  it("reports a glob over a user account as an error of that entry, and plans the rest", async () => {
    const config = configFile(`version: 1
repositories:
  - name: octo-admin/*
    where: { properties: { team: web } }
    branch_protection: { main: null }
  - name: acme/web
    branch_protection: { main: null }
`);
    const planned = await runInProcess(["plan", "-c", config, ...at(), "--format", "json"]);
    expect(planned.code).toBe(1);
    expect(changes(planned.stdout)).toEqual({
      "github/octo-admin/* where team=web/branch_protection/*":
        "octo-admin has no custom properties: it is not an organization (or the token cannot see it)",
      "github/acme/web/branch_protection/main": "no-op",
    });
  });

  it("shows which repositories each entry selects when validate may read the service", async () => {
    const config = configFile(`version: 1
repositories:
  - name: acme/*
    where: { properties: { tier: critical } }
    branch_protection: { main: null }
  - name: acme/web
    branch_protection: { main: null }
  - name: octo-admin/*
    where: { properties: { team: web } }
`);
    const result = await runInProcess(["validate", "-c", config, "--matches", ...at()]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const matches = [
      "Repository entries select, on the service now:",
      `  acme/* where tier=critical (${config}:3): acme/api`,
      `  acme/web (${config}:6): acme/web`,
      `  octo-admin/* where team=web (${config}:8): could not be read: GET /orgs/octo-admin/properties/values → 404: octo-admin has no custom properties: it is not an organization (or the token cannot see it)`,
      "",
    ].join("\n");
    expect(result.stdout).toBe(
      `valid: ${config} (3 repository entries, 0 project entries, 0 organizations, 0 groups, 0 instances, 0 audits)\n` +
        // Against the sandbox a plan signs in with the sandbox's token: none is needed.
        `\n${matches}`,
    );
    // --print with a sandbox to read shows them after the merged state.
    const printed = await runInProcess(["validate", "-c", config, "--print", ...at()]);
    expect(printed.stdout.endsWith(`\n\n${matches}`)).toBe(true);
    expect(printed.stdout).toContain(
      "github/acme/*/branch_protection/main (glob where tier=critical)",
    );
  });

  it("refuses where on a name that is not a glob, and a property named twice", async () => {
    const config = configFile(`version: 1
repositories:
  - name: acme/api
    where: { properties: { team: web } }
  - name: acme/*
    where: { properties: { team: web, Team: api } }
`);
    const result = await runInProcess(["validate", "-c", config]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `${config}:4:12: repositories[0].where: where is only for glob names; acme/api names one repository`,
        `${config}:6:45: repositories[1].where.properties.Team: custom property Team is named twice (names are case-insensitive)`,
        "",
      ].join("\n"),
    );
  });

  it("exports the where it was asked for, with what every match shares on the glob entry", async () => {
    await call(world, "PUT", "/repos/acme/web/branches/main/protection", {
      body: {
        required_status_checks: null,
        enforce_admins: true,
        required_pull_request_reviews: null,
        restrictions: null,
      },
    });
    await call(world, "PATCH", "/orgs/acme/properties/values", {
      body: {
        repository_names: ["api", "web"],
        properties: [{ property_name: "team", value: "payments" }],
      },
    });
    const exported = await runInProcess([
      "export",
      "--repo",
      "acme/*",
      "--where",
      "team=payments",
      ...at(),
    ]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    const document = parse(exported.stdout) as {
      repositories: Array<Record<string, unknown>>;
    };
    expect(document.repositories.map((entry) => [entry.name, entry.where])).toEqual([
      ["acme/*", { properties: { team: "payments" } }],
      ["acme/api", undefined],
      ["acme/web", undefined],
    ]);
    // Both repositories protect main differently, so each keeps its own; nothing else is shared.
    expect(Object.keys(document.repositories[1]!.branch_protection as object)).toEqual(["main"]);
    expect(Object.keys(document.repositories[2]!.branch_protection as object)).toEqual(["main"]);
    const config = configFile(exported.stdout);
    const replan = await runInProcess(["plan", "-c", config, ...at()]);
    expect(replan.stderr).toBe("");
    expect(replan.stdout).toContain("No changes. Live state matches the desired state.");
  });

  it("puts what every selected repository has alike on the glob entry alone", async () => {
    const generated = await sandbox({ generate: 20 });
    try {
      const args = ["--sandbox-url", generated.url];
      const exported = await runInProcess([
        "export",
        "--repo",
        "acme/repo-*",
        "--where",
        "team=team-01",
        ...args,
      ]);
      expect(exported.stdout).toContain(
        "# acme/repo-* where team=team-01 selects acme/repo-0001, acme/repo-0011: what all of them share is on its entry, the rest on each repository's own\n",
      );
      const document = parse(exported.stdout) as { repositories: Array<Record<string, unknown>> };
      expect(document.repositories).toHaveLength(1);
      expect(document.repositories[0]).toMatchObject({
        name: "acme/repo-*",
        where: { properties: { team: "team-01" } },
        webhooks: { mode: "additive" },
        // GitHub's default labels, alike on every new repository.
        labels: { mode: "additive", items: { bug: { color: "d73a4a" } } },
      });
      const replan = await runInProcess([
        "plan",
        "-c",
        configFile(exported.stdout),
        ...args,
        "--format",
        "json",
      ]);
      expect(replan.code).toBe(0);
      // The settings every repository shares plan too, unchanged, beside the labels and hooks.
      const planned = Object.keys(changes(replan.stdout)).sort();
      expect(planned.filter((address) => address.includes("/settings/")).length).toBeGreaterThan(0);
      expect(planned.filter((address) => address.includes("/label/"))).toHaveLength(18);
      const rest = planned.filter(
        (address) => !address.includes("/settings/") && !address.includes("/label/"),
      );
      expect(rest).toEqual(
        ["repo-0001", "repo-0011"].flatMap((repo) => [
          `github/acme/${repo}/actions/access`,
          `github/acme/${repo}/actions/permissions`,
          `github/acme/${repo}/actions/workflow`,
          // Export writes the values each repository holds (the custom_property kind).
          `github/acme/${repo}/custom_property/team`,
          `github/acme/${repo}/custom_property/tier`,
          `github/acme/${repo}/webhook/https://chat.acme.example/notify`,
          `github/acme/${repo}/webhook/https://ci.acme.example/hooks/forge`,
        ]),
      );
    } finally {
      await generated.stop();
    }
  });
});
