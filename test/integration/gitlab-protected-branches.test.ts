import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { Change, Plan } from "../../src/core/plan.js";
import { demoWorld } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { placeholdersOf } from "../helpers/placeholders.js";
import { call, configFile } from "../helpers/sandbox.js";
import { gitlabScenario } from "../helpers/gitlab-scenario.js";

/**
 * GitLab protected branches and tags (#36, items 3 and 4) end to end against acme/api: a change
 * is one PATCH naming the live entries' ids, never a pile-up; a tier whose PATCH cannot change a
 * list shows the gap and applies it only with --allow-protection-gap; a member added a moment
 * before apply converges under the sandbox's member delay without fixed sleeps; a group's
 * protection is never written nor removed at the project; an unknown user is refused at plan
 * time; a protected tag's change is a replacement; export plans as no change.
 */

const BRANCHES = "/api/v4/projects/acme%2Fapi/protected_branches";
const TAGS = "/api/v4/projects/acme%2Fapi/protected_tags";

const scenario = gitlabScenario();
const { start, apply, writes } = scenario;

type Seed = Record<string, unknown> & {
  projects: Array<Record<string, unknown>>;
  groups: Array<Record<string, unknown>>;
};

/** The demo world with acme/api's protections (and group acme's) as given. */
function seedFile(change: (seed: Seed) => void): string {
  const seed = structuredClone(demoWorld) as unknown as Seed;
  change(seed);
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-protections-")), "world.yaml");
  writeFileSync(file, stringify(seed));
  return file;
}

function api(seed: Seed): Record<string, unknown> {
  return seed.projects.find((project) => project.id === 1)!;
}

function config(yaml: string): string {
  return configFile(`version: 1
projects:
  - project: acme/api
${yaml
  .trim()
  .split("\n")
  .map((line) => `    ${line}`)
  .join("\n")}
`);
}

async function plan(path: string, env: Record<string, string> = {}) {
  const result = await runInProcess(
    ["plan", "-c", path, "--sandbox-url", scenario.world.url, "--format", "json"],
    { env },
  );
  return { code: result.code, plan: JSON.parse(result.stdout) as Plan, stderr: result.stderr };
}

const named = (planned: Plan, name: string): Change =>
  planned.changes.find((change) => change.name === name)!;

interface Entry {
  id: number;
  access_level: number | null;
  user_id?: number | null;
}

async function branch(name: string): Promise<Record<string, Entry[]>> {
  const answer = await call(scenario.world, "GET", `${BRANCHES}/${encodeURIComponent(name)}`);
  expect(answer.status).toBe(200);
  return answer.body as Record<string, Entry[]>;
}

describe("protected branches", () => {
  it("changes a push level by one PATCH naming the live entry's id, and converges", async () => {
    await start();
    const live = await branch("main");
    const maintainers = live.push_access_levels!.find((entry) => entry.access_level === 40)!;
    const path = config(`
protected_branches:
  branches:
    main:
      push: [developer]
`);
    const first = await plan(path);
    expect(first.code).toBe(2);
    const main = named(first.plan, "main");
    expect(main.action).toBe("update");
    expect(main.diff).toEqual([{ path: "push", before: ["maintainer"], after: ["developer"] }]);
    expect(main.requests).toEqual([
      {
        method: "PATCH",
        path: `${BRANCHES}/main`,
        body: { allowed_to_push: [{ id: maintainers.id, _destroy: true }, { access_level: 30 }] },
      },
    ]);
    expect((await apply(path)).code).toBe(0);
    expect(writes().map((request) => [request.method, request.path, request.operation])).toEqual([
      ["PATCH", `${BRANCHES}/main`, "PATCH /api/v4/projects/{id}/protected_branches/{name}"],
    ]);
    expect((await plan(path)).code).toBe(0);
    // The other lists were left as they were: their entries keep their ids.
    const after = await branch("main");
    expect(after.merge_access_levels).toEqual(live.merge_access_levels);
  });

  it("turns live [No one, Maintainers] into [Maintainers] by destroying exactly one id", async () => {
    const seed = seedFile((one) => {
      api(one).protected_branches = [{ name: "main", push: [0, 40], merge: [40] }];
    });
    await start({ seed });
    const noOne = (await branch("main")).push_access_levels!.find(
      (entry) => entry.access_level === 0,
    )!;
    const path = config(`
protected_branches:
  branches:
    main:
      push: [maintainer]
      merge: [maintainer]
`);
    const first = await plan(path);
    expect(named(first.plan, "main").requests).toEqual([
      {
        method: "PATCH",
        path: `${BRANCHES}/main`,
        body: { allowed_to_push: [{ id: noOne.id, _destroy: true }] },
      },
    ]);
    expect((await apply(path)).code).toBe(0);
    expect(writes()).toHaveLength(1);
    const push = (await branch("main")).push_access_levels!;
    expect(push.map((entry) => entry.access_level)).toEqual([40]);
    expect((await plan(path)).code).toBe(0);
  });

  it("on Free shows the gap, refuses it without --allow-protection-gap and applies it with", async () => {
    const seed = seedFile((one) => {
      api(one).protected_branches = [{ name: "main", push: [40], merge: [40] }];
    });
    await start({ seed, gitlabTier: "free" });
    const path = config(`
protected_branches:
  branches:
    main:
      push: [developer]
      allow_force_push: true
`);
    const first = await plan(path);
    const main = named(first.plan, "main");
    expect(main.gate).toBe("protection_gap");
    expect(main.notes!.join("\n")).toContain("unprotected between two requests");
    expect(main.requests).toEqual([
      { method: "DELETE", path: `${BRANCHES}/main` },
      {
        method: "POST",
        path: BRANCHES,
        body: {
          name: "main",
          push_access_level: 30,
          merge_access_level: 40,
          allow_force_push: true,
        },
      },
    ]);
    const text = await runInProcess(["plan", "-c", path, "--sandbox-url", scenario.world.url]);
    expect(text.stdout).toContain("unprotected between two requests");
    const refused = await apply(path);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain("needs --allow-protection-gap");
    expect(writes()).toEqual([]);
    expect((await apply(path, "--allow-protection-gap")).code).toBe(0);
    expect(writes().map((request) => request.method)).toEqual(["DELETE", "POST"]);
    expect((await plan(path)).code).toBe(0);
  });

  it("on Free changes force push alone by PATCH, without a gap", async () => {
    const seed = seedFile((one) => {
      api(one).protected_branches = [{ name: "main", push: [40], merge: [40] }];
    });
    await start({ seed, gitlabTier: "free" });
    const path = config(`
protected_branches:
  branches:
    main:
      allow_force_push: true
`);
    const main = named((await plan(path)).plan, "main");
    expect(main.gate).toBeUndefined();
    expect(main.requests).toEqual([
      { method: "PATCH", path: `${BRANCHES}/main`, body: { allow_force_push: true } },
    ]);
    expect((await apply(path)).code).toBe(0);
    expect((await plan(path)).code).toBe(0);
  });

  it("converges on a member added in the same plan and named in a protection, under the member delay, without fixed sleeps", async () => {
    await start({ gitlabMemberDelayMs: 700 });
    // outside-contractor (5) is no member of acme/api: the plan adds them (the members kind, applied
    // before protections) and names them in main's merge list.
    const path = config(`
members:
  users:
    outside-contractor: developer
protected_branches:
  branches:
    main:
      merge: [developer, {user: octo-dev}, {user: outside-contractor}]
`);
    scenario.forget();
    const started = Date.now();
    const applied = await apply(path);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const order = writes().map((request) => `${request.method} ${request.path}`);
    expect(order[0]).toBe("POST /api/v4/projects/acme%2Fapi/members");
    const patches = writes().filter((request) => request.method === "PATCH");
    // Sent again while GitLab answered "not a member" (the member delay), then kept: no sleep
    // before the first try, and the same body each time.
    expect(patches.length).toBeGreaterThan(1);
    expect(new Set(patches.map((request) => JSON.stringify(request.body))).size).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await plan(path)).code).toBe(0);
  });

  it("answers a user just added as a member as GitLab does within the member delay", async () => {
    await start({ gitlabMemberDelayMs: 60_000 });
    const added = await call(scenario.world, "POST", "/api/v4/projects/1/members", {
      body: { user_id: 5, access_level: 30 },
    });
    expect(added.status).toBe(201);
    const early = await call(scenario.world, "PATCH", `${BRANCHES}/main`, {
      body: { allowed_to_merge: [{ user_id: 5 }] },
    });
    expect(early.status).toBe(422);
    expect(early.body).toEqual({
      message: ["Merge access levels user is not a member of the project"],
    });
  });

  it("leaves a group's protection alone: not removed by authoritative mode, not exported, not written", async () => {
    const seed = seedFile((one) => {
      const acme = one.groups.find((group) => group.path === "acme")!;
      acme.protected_branches = [{ name: "stable", push: [40], merge: [40] }];
    });
    await start({ seed });
    expect((await call(scenario.world, "GET", BRANCHES)).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "stable", inherited: true })]),
    );
    const path = config(`
protected_branches:
  mode: authoritative
  branches:
    main:
      push: [maintainer]
`);
    const first = await plan(path);
    expect(first.plan.changes.map((change) => [change.name, change.action])).toEqual([
      ["main", "no-op"],
      ["release/*", "delete"],
    ]);
    const exported = await runInProcess([
      "export",
      "--project",
      "acme/api",
      "--sandbox-url",
      scenario.world.url,
    ]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("release/*");
    expect(exported.stdout).not.toContain("stable");
    const written = config(`
protected_branches:
  branches:
    stable:
      push: [developer]
`);
    const refused = await plan(written);
    expect(refused.code).toBe(1);
    expect(named(refused.plan, "stable").error?.message).toContain("inherited");
    expect(writes()).toEqual([]);
  });

  it("refuses an unknown username at plan time, naming it and where it is written", async () => {
    await start();
    const path = config(`
protected_branches:
  branches:
    main:
      merge: [maintainer, {user: ghost}]
`);
    const planned = await plan(path);
    expect(planned.code).toBe(1);
    const error = named(planned.plan, "main").error!;
    expect(error.message).toContain("user 'ghost' does not exist");
    expect(error.written).toMatch(/forgeplan\.yaml:\d+:\d+/);
    const applied = await apply(path);
    expect(applied.code).toBe(1);
    expect(writes()).toEqual([]);
  });
});

describe("protected tags", () => {
  it("shows a change as a replacement, gated, and converges with --allow-protection-gap", async () => {
    await start();
    const path = config(`
protected_tags:
  tags:
    "v*":
      create: [developer]
`);
    const tag = named((await plan(path)).plan, "v*");
    expect(tag.action).toBe("update");
    expect(tag.gate).toBe("protection_gap");
    expect(tag.notes!.join("\n")).toContain("replaced, unprotected between two requests");
    expect(tag.requests).toEqual([
      { method: "DELETE", path: `${TAGS}/v*` },
      { method: "POST", path: TAGS, body: { name: "v*", create_access_level: 30 } },
    ]);
    expect((await apply(path)).code).toBe(1);
    expect(writes()).toEqual([]);
    expect((await apply(path, "--allow-protection-gap")).code).toBe(0);
    expect((await plan(path)).code).toBe(0);
  });
});

describe("export", () => {
  it("of the demo acme/api plans as no change", async () => {
    await start();
    const exported = await runInProcess([
      "export",
      "--project",
      "acme/api",
      "--sandbox-url",
      scenario.world.url,
    ]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("protected_branches:");
    expect(exported.stdout).toContain("protected_tags:");
    const path = configFile(exported.stdout);
    // The hooks' tokens and headers are placeholders the export wrote, to set (gitlab_hook).
    const planned = await plan(path, placeholdersOf(exported.stdout));
    expect(
      planned.code,
      JSON.stringify(planned.plan.changes.filter((c) => c.action !== "no-op")),
    ).toBe(0);
  });
});
