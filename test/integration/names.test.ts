import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { sandbox } from "../sandbox/helpers.js";

/**
 * Logins and team slugs the configuration writes are resolved when planning: one that names nothing
 * is an error of its change, positioned where it was written, and nothing is applied for it.
 */

function workspace(config: string): string {
  const cwd = mkdtempSync(join(tmpdir(), "forgeplan-names-"));
  writeFileSync(join(cwd, "forgeplan.yaml"), config);
  return cwd;
}

const CONFIG = `version: 1
repositories:
  - name: acme/api
    access:
      users:
        ghost-user: write
        mona: triage
      teams:
        no-such-team: read
        platform: write
organizations:
  - name: acme
    teams:
      platform:
        members:
          users:
            nobody-here: member
`;

describe("names the configuration writes", () => {
  it("are plan-time errors naming the name and where it was written", async () => {
    const world = await sandbox();
    const cwd = workspace(CONFIG);
    const planned = await runInProcess(["plan", "--sandbox-url", world.url], { cwd });
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      'error: forgeplan.yaml:6:9: access.users.ghost-user: collaborator "ghost-user" is not a user (GET /users/ghost-user → 404)',
    );
    expect(planned.stdout).toContain(
      'error: forgeplan.yaml:9:9: access.teams.no-such-team: team "no-such-team" is not a team of acme, and this plan creates no team of that slug',
    );
    expect(planned.stdout).toContain(
      'error: forgeplan.yaml:17:13: teams.platform.members.users.nobody-here: member "nobody-here" is not a user (GET /users/nobody-here → 404)',
    );
    expect(planned.stdout).toContain("3 errors");
    // What names something real plans as usual.
    expect(planned.stdout).not.toContain("access/users/mona");

    const json = await runInProcess(["plan", "--sandbox-url", world.url, "--format", "json"], {
      cwd,
    });
    const plan = JSON.parse(json.stdout) as {
      changes: Array<{ address: string; error?: { written?: string }; requests: unknown[] }>;
    };
    const ghost = plan.changes.find((change) => change.address.endsWith("users/ghost-user"));
    expect(ghost?.error?.written).toBe("forgeplan.yaml:6:9: access.users.ghost-user");
    expect(ghost?.requests).toEqual([]);
  });

  it("accepts a team slug the same plan creates, and a login that is a user", async () => {
    const world = await sandbox();
    const cwd = workspace(`version: 1
repositories:
  - name: acme/api
    access:
      users:
        hubot: read
      teams:
        docs-writers: read
organizations:
  - name: acme
    teams:
      docs-writers:
        description: People who write the docs
`);
    const planned = await runInProcess(["plan", "--sandbox-url", world.url], { cwd });
    expect(planned.stdout).not.toContain("error:");
    expect(planned.stdout).toContain("+ github/acme/team/docs-writers will be created");
    expect(planned.stdout).toContain("+ github/acme/api/access/teams/docs-writers will be created");
    expect(planned.code).toBe(2);
    const applied = await runInProcess(["apply", "--sandbox-url", world.url, "--auto-approve"], {
      cwd,
    });
    expect(applied.stdout).toContain("Verified: re-plan shows no changes.");
    expect(applied.code).toBe(0);
  });

  it("name a role the organization lacks at the role, not at a read", async () => {
    const world = await sandbox();
    const cwd = workspace(`version: 1
repositories:
  - name: acme/api
    access:
      users:
        hubot: writer
`);
    const planned = await runInProcess(["plan", "--sandbox-url", world.url], { cwd });
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      'error: forgeplan.yaml:6:9: access.users.hubot: role "writer" is not a repository role: read, triage, write, maintain, admin',
    );
    expect(planned.stdout).not.toContain("custom-repository-roles → 200");
  });
});

describe("a login named in several places", () => {
  it("is looked up once per run, and the lookup is counted in the budget line", async () => {
    const paths: string[] = [];
    const world = await sandbox({
      onRequest: (request) => {
        if (request.method === "GET") paths.push(request.path.split("?")[0]!);
      },
    });
    const cwd = workspace(`version: 1
repositories:
  - name: acme/api
    access:
      users:
        ghost-user: write
  - name: acme/web
    access:
      users:
        ghost-user: read
`);
    const planned = await runInProcess(["plan", "--sandbox-url", world.url], { cwd });
    expect(planned.code).toBe(1);
    expect(paths.filter((path) => path === "/users/ghost-user")).toHaveLength(1);
    // The budget line counts every REST read the run made, the lookup among them.
    const reads = paths.filter((path) => path !== "/rate_limit").length;
    expect(planned.stdout).toMatch(new RegExp(`Reads: ${reads} REST requests`));
  });
});
