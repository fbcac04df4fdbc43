import { describe, expect, it } from "vitest";
import { gitlabScenario } from "../helpers/gitlab-scenario.js";
import { configFile } from "../helpers/sandbox.js";

/**
 * A GitLab project's lifecycle (#36, item 2) against the demo world (group acme with acme/api and
 * acme/web, subgroup acme/platform): created only with --allow-create; archived after its other
 * changes and unarchived before them; `archived_repositories` for a project that stays archived;
 * moved from a previous full path by a transfer and a new path, its old path then redirecting;
 * both paths existing is an error naming both, with nothing written.
 */

const scenario = gitlabScenario({ forgetBefore: ["apply"] });
const { start } = scenario;
const plan = (yaml: string) => scenario.plan(configFile(yaml));
const apply = (yaml: string, ...flags: string[]) => scenario.apply(configFile(yaml), ...flags);

/** The writes apply sent, in order, as `METHOD path`. */
const sent = () =>
  scenario.requests
    .filter((request) => request.method !== "GET")
    .map((request) => `${request.method} ${decodeURIComponent(request.path.split("?")[0]!)}`);

async function read(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(
    `${scenario.world.url}/api/v4/projects/${encodeURIComponent(path)}`,
    {
      headers: { "PRIVATE-TOKEN": "sandbox-admin" },
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("GitLab project lifecycle", () => {
  it("creates a project in its group only with --allow-create, in one request, then plans no change", async () => {
    await start();
    const yaml = `version: 1
projects:
  - project: acme/payments
    settings: { create: true, visibility: private, description: Payments, merge_method: ff }
    boards_absent: [{ name: Old board }]
`;
    const planned = await plan(yaml);
    const create = planned.plan.changes.find(
      (change) => change.address === "gitlab/acme/payments/project_settings/project",
    );
    expect(create).toMatchObject({ action: "create", gate: "create" });
    expect(create?.requests).toEqual([
      {
        method: "POST",
        path: "/api/v4/projects",
        body: {
          name: "payments",
          path: "payments",
          namespace_id: 1,
          visibility: "private",
          description: "Payments",
          merge_method: "ff",
        },
      },
    ]);
    // The board clean-up waits for the project.
    expect(planned.plan.changes.find((change) => change.kind === "board")?.findings?.[0]).toMatch(
      /^planned once acme\/payments exists/,
    );

    const skipped = await apply(yaml);
    expect(skipped.code).toBe(1);
    expect(skipped.stdout).toContain(
      "a creation (of a repository or project) needs --allow-create",
    );
    expect(sent()).toEqual([]);

    const created = await apply(yaml, "--allow-create");
    expect([created.code, created.stderr]).toEqual([0, ""]);
    expect(sent()).toEqual(["POST /api/v4/projects"]);
    const live = await read("acme/payments");
    expect(live.body).toMatchObject({
      path_with_namespace: "acme/payments",
      visibility: "private",
      description: "Payments",
      merge_method: "ff",
      default_branch: null,
    });
    expect((await plan(yaml)).code).toBe(0);

    // A project wider than its group is refused at plan time, as GitLab would refuse the create.
    const wider = await plan(`version: 1
projects:
  - project: acme/open
    settings: { create: true, visibility: internal }
`);
    expect(wider.code).toBe(1);
    expect(wider.plan.changes[0]?.error?.message).toBe(
      `visibility internal is wider than group acme's (private): GitLab refuses the create ("visibility_level internal is not allowed in a private group")`,
    );
  });

  it("archives after the project's other changes and unarchives before them", async () => {
    await start();
    const archive = `version: 1
projects:
  - project: acme/web
    settings: { archived: true, description: Retired front end }
`;
    expect((await apply(archive)).code).toBe(0);
    expect(sent()).toEqual([
      "PUT /api/v4/projects/acme/web",
      "POST /api/v4/projects/acme/web/archive",
    ]);
    expect((await read("acme/web")).body.archived).toBe(true);
    expect((await plan(archive)).code).toBe(0);

    const unarchive = `version: 1
projects:
  - project: acme/web
    settings: { archived: false, description: The web front end again }
`;
    expect((await apply(unarchive)).code).toBe(0);
    expect(sent()).toEqual([
      "POST /api/v4/projects/acme/web/unarchive",
      "PUT /api/v4/projects/acme/web",
    ]);
    expect((await plan(unarchive)).code).toBe(0);
  });

  it("skips an archived project's changes by default, and with archived_repositories: unarchive wraps them", async () => {
    await start();
    await apply(`version: 1
projects:
  - project: acme/web
    settings: { archived: true }
`);
    const skip = `version: 1
projects:
  - project: acme/web
    settings: { description: Still archived }
`;
    const skipped = await plan(skip);
    expect(skipped.plan.changes.map((change) => [change.name, change.action])).toEqual([
      ["project", "report"],
    ]);
    expect(skipped.plan.changes[0]?.findings?.join(" ")).toMatch(/archived/);

    const wrap = `version: 1
projects:
  - project: acme/web
    settings: { description: Still archived, archived_repositories: unarchive }
`;
    expect((await apply(wrap)).code).toBe(0);
    expect(sent()).toEqual([
      "POST /api/v4/projects/acme/web/unarchive",
      "PUT /api/v4/projects/acme/web",
      "POST /api/v4/projects/acme/web/archive",
    ]);
    expect((await read("acme/web")).body).toMatchObject({
      archived: true,
      description: "Still archived",
    });
    expect((await plan(wrap)).code).toBe(0);
  });

  it("moves a project from its previous path after its other changes, and the old path redirects", async () => {
    await start();
    const yaml = `version: 1
projects:
  - project: acme/platform/frontend
    settings: { previously: [acme/web], description: The front end }
`;
    const planned = await plan(yaml);
    const move = planned.plan.changes.find((change) => change.name === "path");
    expect(move).toMatchObject({
      address: "gitlab/acme/platform/frontend/project_settings/path",
      action: "update",
      requests: [
        {
          method: "PUT",
          path: "/api/v4/projects/2/transfer",
          body: { namespace: "acme/platform" },
        },
        { method: "PUT", path: "/api/v4/projects/2", body: { path: "frontend" } },
      ],
    });
    expect((await apply(yaml)).code).toBe(0);
    // The description is written where the project was; the move comes last.
    expect(sent()).toEqual([
      "PUT /api/v4/projects/acme/web",
      "PUT /api/v4/projects/2/transfer",
      "PUT /api/v4/projects/2",
    ]);
    const moved = await read("acme/platform/frontend");
    expect(moved.body).toMatchObject({ id: 2, description: "The front end" });
    // GitLab answers the old path with the project itself.
    expect((await read("acme/web")).body).toMatchObject({
      id: 2,
      path_with_namespace: "acme/platform/frontend",
    });
    expect((await plan(yaml)).code).toBe(0);

    // Named by its old path alone, it is found to have moved: an error, never a new project.
    const stale = await plan(`version: 1
projects:
  - project: acme/web
    settings: { description: The front end }
`);
    expect(stale.code).toBe(1);
    expect(stale.plan.changes[0]?.error?.message).toBe(
      "acme/web is not found under its path, and acme/web now redirects to acme/platform/frontend (GitLab keeps a moved project's old path): list acme/platform/frontend in previously to move it back, or name acme/platform/frontend in the entry",
    );
  });

  it("refuses a previous path that is another project, naming both, and writes nothing", async () => {
    await start();
    const yaml = `version: 1
projects:
  - project: acme/web
    settings: { previously: [acme/api], description: Either }
`;
    const planned = await plan(yaml);
    expect(planned.code).toBe(1);
    expect(planned.plan.changes.map((change) => change.error?.message)).toEqual([
      "acme/web and acme/api are two projects (ids 2 and 1); previously lists acme/api, which is not this project's old path: remove it from previously or move one of them — forgeplan does not guess which is meant",
    ]);
    const applied = await apply(yaml);
    expect(applied.code).toBe(1);
    expect(sent()).toEqual([]);
  });
});
