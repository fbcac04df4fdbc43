import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, recordingSandbox } from "../helpers/sandbox.js";

/**
 * Who has access to the demo world's acme/api, against the sandbox: what a role change sends, how
 * a pending invitation counts, how authoritative mode's removals are held by the removal limit,
 * teams written by their display name, and the security manager team GitHub keeps.
 */

const service = recordingSandbox();
const writes = service.writes;
const world = () => service.start();

function accessConfig(access: string): string {
  return configFile(`version: 1
repositories:
  - name: acme/api
    access:
${access}
`);
}

async function cli(url: string, command: string, config: string, ...extra: string[]) {
  return runInProcess([command, "-c", config, "--sandbox-url", url, ...extra]);
}

async function jsonPlan(url: string, config: string, ...extra: string[]): Promise<Plan> {
  const result = await cli(url, "plan", config, "--format", "json", ...extra);
  return JSON.parse(result.stdout) as Plan;
}

const sent = () => writes.map((request) => `${request.method} ${request.path}`);

describe("access", () => {
  it("changes a collaborator's role with one PUT, never a removal and a new grant", async () => {
    const sb = await world();
    const config = accessConfig("      users: { octo-dev: maintain }");
    const applied = await cli(sb.url, "apply", config, "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(sent()).toEqual(["PUT /repos/acme/api/collaborators/octo-dev"]);
    expect(writes[0]?.body).toEqual({ permission: "maintain" });
    const listed = await call(sb, "GET", "/repos/acme/api/collaborators?affiliation=direct");
    expect(
      (listed.body as Array<{ login: string; role_name: string }>).find(
        (user) => user.login === "octo-dev",
      )?.role_name,
    ).toBe("maintain");
    expect((await cli(sb.url, "plan", config)).code).toBe(0);
  });

  it("counts a pending invitation with the right role as granted: no change", async () => {
    const sb = await world();
    // hubot was invited with write and has not accepted; push is write.
    const plan = await jsonPlan(sb.url, accessConfig("      users: { hubot: push }"));
    expect(plan.summary).toMatchObject({ create: 0, update: 0, delete: 0 });
    expect(plan.changes.map((change) => [change.address, change.action])).toEqual([
      ["github/acme/api/access/users/hubot", "no-op"],
    ]);
  });

  it("changes a pending invitation's role with a PATCH of the invitation", async () => {
    const sb = await world();
    const config = accessConfig("      users: { hubot: triage }");
    const applied = await cli(sb.url, "apply", config, "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(sent()).toEqual(["PATCH /repos/acme/api/invitations/1"]);
    expect(writes[0]?.body).toEqual({ permissions: "triage" });
  });

  it("replaces an expired invitation, and says so", async () => {
    const sb = await world();
    const config = accessConfig("      users: { outside-contractor: read }");
    const plan = await jsonPlan(sb.url, config);
    const change = plan.changes[0]!;
    expect(change.action).toBe("create");
    expect(change.notes?.join(" ")).toMatch(/expired: it is deleted and a new one sent/);
    const applied = await cli(sb.url, "apply", config, "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(sent()).toEqual([
      "DELETE /repos/acme/api/invitations/3",
      "PUT /repos/acme/api/collaborators/outside-contractor",
    ]);
    expect((await cli(sb.url, "plan", config)).code).toBe(0);
  });

  it("holds authoritative removals over the removal limit until a run raises it", async () => {
    const sb = await world();
    // acme/api's users: octo-dev and mona collaborate, hubot and outside-contractor are invited.
    // Keeping octo-dev alone removes 3 of 4, over 25 % (at least 2).
    const config = accessConfig("      mode: authoritative\n      users: { octo-dev: write }");
    const planned = await cli(sb.url, "plan", config);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain(
      "Held by the removal limit: 3 deletes in github/acme/api/access/users: 3 of 4 (75 %) would be removed, over the removal limit of 25 % (at least 2); raise it with --removal-limit 75 or removal_limit.share; --allow-delete alone does not apply them.",
    );
    const held = await cli(sb.url, "apply", config, "--auto-approve", "--allow-delete");
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(
      "forgeplan: apply: 3 deletes held by the removal limit and not applied, in github/acme/api/access/users: 3 of 4 (75 %) would be removed",
    );
    expect(held.stderr).toContain("--removal-limit 75 or removal_limit.share");
    expect(sent().filter((write) => write.startsWith("DELETE"))).toEqual([]);

    const raised = await cli(
      sb.url,
      "apply",
      config,
      "--auto-approve",
      "--allow-delete",
      "--removal-limit",
      "75",
    );
    expect(raised.code, raised.stderr).toBe(0);
    expect(
      sent()
        .filter((write) => write.startsWith("DELETE"))
        .sort(),
    ).toEqual([
      "DELETE /repos/acme/api/collaborators/mona",
      "DELETE /repos/acme/api/invitations/1",
      "DELETE /repos/acme/api/invitations/3",
    ]);
    expect((await cli(sb.url, "plan", config)).code).toBe(0);
  });

  it("takes the removal limit from the configuration too", async () => {
    const sb = await world();
    const config = configFile(`version: 1
removal_limit: { share: 100 }
repositories:
  - name: acme/api
    access: { mode: authoritative, users: { octo-dev: write } }
`);
    const applied = await cli(sb.url, "apply", config, "--auto-approve", "--allow-delete");
    expect(applied.code, applied.stderr).toBe(0);
    expect((await cli(sb.url, "plan", config)).code).toBe(0);
  });

  it("refuses a team written by its display name, naming its slug, and removes nothing for it", async () => {
    const sb = await world();
    const plan = await jsonPlan(
      sb.url,
      accessConfig(
        "      mode: authoritative\n      teams: { platform: push, Release managers: maintain }",
      ),
    );
    const byName = plan.changes.find((change) => change.name === "teams/release managers");
    expect(byName?.error?.message).toBe(
      'team "Release managers" is written by its name: teams are keyed by slug, and its slug is release-managers',
    );
    // The team it names is not also a team authoritative mode removes.
    expect(plan.changes.some((change) => change.name === "teams/release-managers")).toBe(false);
  });

  it("never sends a security manager team a DELETE, and shows it as such", async () => {
    const sb = await world();
    // security reads every repository of acme; a grant of its own on acme/api makes it direct.
    await call(sb, "PUT", "/orgs/acme/teams/security/repos/acme/api", {
      body: { permission: "push" },
    });
    writes.splice(0);
    const authoritative = accessConfig(
      "      mode: authoritative\n      teams: { platform: push }",
    );
    const plan = await jsonPlan(sb.url, authoritative);
    const security = plan.changes.find((change) => change.name === "teams/security");
    expect(security?.action).toBe("no-op");
    expect(security?.notes?.join(" ")).toMatch(
      /security manager team: GitHub keeps it on every repository of the organization \("You cannot remove repositories from a security manager team"\)/,
    );
    const written = accessConfig("      teams: { security: null }");
    const refused = await jsonPlan(sb.url, written);
    expect(refused.changes[0]?.error?.message).toMatch(/is a security manager team/);
    for (const config of [authoritative, written]) {
      await cli(
        sb.url,
        "apply",
        config,
        "--auto-approve",
        "--allow-delete",
        "--removal-limit",
        "100",
      );
    }
    expect(sent().filter((write) => write.includes("/teams/security/"))).toEqual([]);
    // What GitHub answers the DELETE forgeplan never sends.
    const answer = await call(sb, "DELETE", "/orgs/acme/teams/security/repos/acme/api");
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      "You cannot remove repositories from a security manager team.",
    );
  });

  it("never removes an organization owner's access", async () => {
    const sb = await world();
    await call(sb, "PUT", "/repos/acme/api/collaborators/octo-admin", {
      body: { permission: "pull" },
    });
    const plan = await jsonPlan(
      sb.url,
      accessConfig(
        "      mode: authoritative\n      users: { octo-dev: write, mona: triage, hubot: write, outside-contractor: admin }",
      ),
    );
    const owner = plan.changes.find((change) => change.name === "users/octo-admin");
    expect(owner?.action).toBe("no-op");
    expect(owner?.notes).toEqual([
      "octo-admin owns acme and has admin through it: authoritative mode does not remove owners",
    ]);
  });

  it("exports access that plans as no change", async () => {
    const sb = await world();
    const exported = await runInProcess(["export", "--repo", "acme/api", "--sandbox-url", sb.url]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain("access:");
    const config = configFile(exported.stdout);
    const plan = await cli(sb.url, "plan", config);
    expect(plan.code, plan.stdout).toBe(0);
  });
});
