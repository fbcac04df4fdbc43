import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, recordingSandbox } from "../helpers/sandbox.js";

/** The teams of the demo world's acme, against the sandbox, and saved plans of held removals. */

const service = recordingSandbox();
const writes = service.writes;
const world = () => service.start();

function teamsConfig(teams: string): string {
  return configFile(`version: 1
organizations:
  - name: acme
    teams:
${teams}
`);
}

const cli = (url: string, ...argv: string[]) => runInProcess([...argv, "--sandbox-url", url]);

const sent = () => writes.map((request) => `${request.method} ${request.path}`);

describe("organization teams", () => {
  it("creates a parent before the child written before it, and re-plans as no change", async () => {
    const sb = await world();
    const config = teamsConfig(`      qa-leads: { name: QA leads, parent: qa }
      qa: { name: QA, description: Tests what ships }`);
    const applied = await cli(sb.url, "apply", "-c", config, "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(sent()).toEqual(["POST /orgs/acme/teams", "POST /orgs/acme/teams"]);
    expect(writes.map((request) => (request.body as { name: string }).name)).toEqual([
      "QA",
      "QA leads",
    ]);
    expect(writes[1]?.body).toMatchObject({ parent_team_slug: "qa", privacy: "closed" });
    const child = await call(sb, "GET", "/orgs/acme/teams/qa-leads");
    expect(child.body.parent.slug).toBe("qa");
    expect((await cli(sb.url, "plan", "-c", config)).code).toBe(0);
  });

  it("deletes a team written null only with --allow-delete", async () => {
    const sb = await world();
    const config = teamsConfig("      security: null");
    const planned = await cli(sb.url, "plan", "-c", config);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain("- github/acme/team/security will be deleted");
    const skipped = await cli(sb.url, "apply", "-c", config, "--auto-approve");
    expect(skipped.code).toBe(1);
    expect(sent()).toEqual([]);
    const applied = await cli(sb.url, "apply", "-c", config, "--auto-approve", "--allow-delete");
    expect(applied.code, applied.stderr).toBe(0);
    expect(sent()).toEqual(["DELETE /orgs/acme/teams/security"]);
  });

  it("refuses a name that would give the team another slug", async () => {
    const sb = await world();
    const plan = JSON.parse(
      (
        await cli(
          sb.url,
          "plan",
          "-c",
          teamsConfig("      platform: { name: Platform engineering }"),
          "--format",
          "json",
        )
      ).stdout,
    ) as Plan;
    expect(plan.changes[0]?.error?.message).toMatch(
      /the name "Platform engineering" would give team platform the slug platform-engineering/,
    );
  });

  it("changes a member's role with one PUT and removes members authoritative mode does not list", async () => {
    const sb = await world();
    await call(sb, "PUT", "/orgs/acme/teams/platform/memberships/octo-reader", {
      body: { role: "member" },
    });
    writes.splice(0);
    const config = teamsConfig(
      "      platform: { members: { mode: authoritative, users: { octo-dev: member } } }",
    );
    const applied = await cli(sb.url, "apply", "-c", config, "--auto-approve", "--allow-delete");
    expect(applied.code, applied.stderr).toBe(0);
    expect(sent().sort()).toEqual([
      "DELETE /orgs/acme/teams/platform/memberships/octo-reader",
      "PUT /orgs/acme/teams/platform/memberships/octo-dev",
    ]);
    expect((await cli(sb.url, "plan", "-c", config)).code).toBe(0);
  });

  it("exports the organization's teams, which plan as no change", async () => {
    const sb = await world();
    const exported = await runInProcess(["export", "--org", "acme", "--sandbox-url", sb.url]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain("teams:");
    expect(exported.stdout).toContain("parent: platform");
    // The organization's write-only values are exported as placeholders to fill.
    const plan = await runInProcess(
      ["plan", "-c", configFile(exported.stdout), "--sandbox-url", sb.url],
      { env: { NPM_TOKEN: "any", ACME_HOOK_501_SECRET: "any" } },
    );
    expect(plan.code, plan.stdout).toBe(0);
  });
});

describe("a saved plan of removals the removal limit holds", () => {
  const config = () =>
    configFile(`version: 1
repositories:
  - name: acme/api
    access: { mode: authoritative, users: { octo-dev: write } }
`);

  it("keeps them held when applied, even with the limit raised then: a new plan applies them", async () => {
    const sb = await world();
    const path = config();
    const saved = join(dirname(path), "plan.json");
    const planned = await cli(sb.url, "plan", "-c", path, "--out", saved);
    expect(planned.code).toBe(2);
    const file = JSON.parse(readFileSync(saved, "utf8")) as Plan;
    const held = file.changes.filter((change) => change.capped !== undefined);
    expect(held.map((change) => change.name).sort()).toEqual([
      "users/hubot",
      "users/mona",
      "users/outside-contractor",
    ]);
    expect(held[0]?.capped).toEqual({ by: "collection", count: 3, live: 4, allowed: 2 });
    const raisedLate = await cli(
      sb.url,
      "apply",
      saved,
      "--auto-approve",
      "--allow-delete",
      "--removal-limit",
      "100",
    );
    expect(raisedLate.code).toBe(1);
    expect(raisedLate.stdout).toContain("when the plan was made; make a new plan to apply it");
    expect(sent()).toEqual([]);

    const raised = await cli(sb.url, "plan", "-c", path, "--out", saved, "--removal-limit", "75");
    expect(raised.code).toBe(2);
    expect((JSON.parse(readFileSync(saved, "utf8")) as Plan).removal_limit).toEqual({
      share: 75,
    });
    const applied = await cli(sb.url, "apply", saved, "--auto-approve", "--allow-delete");
    expect(applied.code, applied.stderr).toBe(0);
    expect(sent().length).toBe(3);
  });

  it("holds every delete of a plan over removal_limit.deletes", async () => {
    const sb = await world();
    const path = configFile(`version: 1
removal_limit: { deletes: 1 }
organizations:
  - name: acme
    teams: { security: null }
repositories:
  - name: acme/api
    access: { users: { mona: null } }
`);
    const planned = await cli(sb.url, "plan", "-c", path);
    expect(planned.stdout).toContain(
      "Held by the removal limit: 2 deletes in the plan: the plan deletes 2, more than the 1 a plan may delete; raise it with --delete-limit 2 or removal_limit.deletes",
    );
    const applied = await cli(sb.url, "apply", "-c", path, "--auto-approve", "--allow-delete");
    expect(applied.code).toBe(1);
    expect(sent()).toEqual([]);
    const raised = await cli(
      sb.url,
      "apply",
      "-c",
      path,
      "--auto-approve",
      "--allow-delete",
      "--delete-limit",
      "2",
    );
    expect(raised.code, raised.stderr).toBe(0);
    expect(sent().sort()).toEqual([
      "DELETE /orgs/acme/teams/security",
      "DELETE /repos/acme/api/collaborators/mona",
    ]);
  });
});
