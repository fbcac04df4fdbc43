import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { demoWorld, type RunningSandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { call, sandbox } from "../helpers/sandbox.js";

/**
 * The sandbox's protected branches and tags as GitLab's docs describe them: entries with ids,
 * Premium's fields only on Premium, GitLab's 409 and 422 answers, PATCH by entry id, the pile-up
 * GitLab allows, and the roles reading and writing take.
 */

const BRANCHES = "/api/v4/projects/acme%2Fapi/protected_branches";
let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

async function start(options: SandboxOptions = {}) {
  world = await sandbox(options);
  return world;
}

describe("protected branches", () => {
  it("answers the demo's protections with entry ids, users and groups on Premium and above", async () => {
    const sb = await start();
    const listed = await call(sb, "GET", BRANCHES);
    expect(listed.status).toBe(200);
    const main = listed.body.find((one: { name: string }) => one.name === "main");
    expect(main).toMatchObject({
      name: "main",
      allow_force_push: false,
      code_owner_approval_required: false,
      inherited: false,
      push_access_levels: [
        {
          access_level: 40,
          access_level_description: "Maintainers",
          user_id: null,
          group_id: null,
        },
      ],
      merge_access_levels: [
        { access_level: 30, access_level_description: "Developers + Maintainers" },
        { access_level: null, user_id: 3 },
      ],
      unprotect_access_levels: [{ access_level: 40 }],
    });
    expect(typeof main.push_access_levels[0].id).toBe("number");
    expect(listed.body.map((one: { name: string }) => one.name)).toEqual(["main", "release/*"]);
  });

  it("leaves Premium's fields out on Free, and drops Premium's parameters from a write", async () => {
    const sb = await start({ gitlabTier: "free" });
    const created = await call(sb, "POST", BRANCHES, {
      body: { name: "develop", push_access_level: 30, allowed_to_merge: [{ access_level: 30 }] },
    });
    expect(created.status).toBe(201);
    expect(created.body.push_access_levels).toEqual([
      {
        id: created.body.push_access_levels[0].id,
        access_level: 30,
        access_level_description: "Developers + Maintainers",
      },
    ]);
    // allowed_to_merge is Premium's: the default, Maintainers, is kept.
    expect(
      created.body.merge_access_levels.map((one: { access_level: number }) => one.access_level),
    ).toEqual([40]);
    expect(created.body).not.toHaveProperty("unprotect_access_levels");
    expect(created.body).not.toHaveProperty("inherited");
  });

  it("refuses a name already protected with 409, and a level twice with 422", async () => {
    const sb = await start();
    const again = await call(sb, "POST", BRANCHES, { body: { name: "main" } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "Protected branch 'main' already exists" });
    const twice = await call(sb, "PATCH", `${BRANCHES}/main`, {
      body: { allowed_to_push: [{ access_level: 40 }] },
    });
    expect(twice.status).toBe(422);
    expect(twice.body).toEqual({
      message: ["Push access levels access level has already been taken"],
    });
  });

  it("patches by entry id, lets contradictory levels pile up as GitLab does, and 404s an unknown id", async () => {
    const sb = await start();
    const before = (await call(sb, "GET", `${BRANCHES}/main`)).body;
    const maintainers = before.push_access_levels[0].id;
    const piled = await call(sb, "PATCH", `${BRANCHES}/main`, {
      body: { allowed_to_push: [{ access_level: 0 }] },
    });
    expect(piled.status).toBe(200);
    expect(
      piled.body.push_access_levels.map((one: { access_level: number }) => one.access_level),
    ).toEqual([40, 0]);
    const destroyed = await call(sb, "PATCH", `${BRANCHES}/main`, {
      body: { allowed_to_push: [{ id: maintainers, _destroy: true }] },
    });
    expect(
      destroyed.body.push_access_levels.map((one: { access_level: number }) => one.access_level),
    ).toEqual([0]);
    const unknown = await call(sb, "PATCH", `${BRANCHES}/main`, {
      body: { allowed_to_push: [{ id: 999_999, _destroy: true }] },
    });
    expect(unknown.status).toBe(404);
  });

  it("refuses a user who is not a member of the project", async () => {
    const sb = await start();
    const outsider = await call(sb, "PATCH", `${BRANCHES}/main`, {
      body: { allowed_to_merge: [{ user_id: 5 }] },
    });
    expect(outsider.status).toBe(422);
    expect(outsider.body).toEqual({
      message: ["Merge access levels user is not a member of the project"],
    });
  });

  it("lets a Developer read and only a Maintainer write", async () => {
    const sb = await start();
    expect((await call(sb, "GET", BRANCHES, { token: "sandbox-dev" })).status).toBe(200);
    expect((await call(sb, "GET", BRANCHES, { token: "sandbox-reader" })).status).toBe(403);
    const write = await call(sb, "DELETE", `${BRANCHES}/main`, { token: "sandbox-dev" });
    expect(write.status).toBe(403);
    expect((await call(sb, "DELETE", `${BRANCHES}/main`)).status).toBe(204);
    expect((await call(sb, "DELETE", `${BRANCHES}/main`)).status).toBe(404);
  });
});

describe("group protections", () => {
  /** The demo world with group acme protecting `stable` (Premium). */
  function seed(): string {
    const world = structuredClone(demoWorld) as unknown as {
      groups: Array<Record<string, unknown>>;
    };
    world.groups.find((group) => group.path === "acme")!.protected_branches = [
      { name: "stable", push: [40], merge: [30] },
    ];
    const file = join(mkdtempSync(join(tmpdir(), "forgeplan-group-protections-")), "world.yaml");
    writeFileSync(file, stringify(world));
    return file;
  }

  it("are the group's, listed in its projects as inherited, and not written at the project", async () => {
    const sb = await start({ seed: seed() });
    const own = await call(sb, "GET", "/api/v4/groups/acme/protected_branches");
    expect(own.status).toBe(200);
    expect(own.body.map((one: { name: string }) => one.name)).toEqual(["stable"]);
    const listed = await call(sb, "GET", BRANCHES);
    expect(listed.body.find((one: { name: string }) => one.name === "stable")).toMatchObject({
      inherited: true,
    });
    expect((await call(sb, "DELETE", `${BRANCHES}/stable`)).status).toBe(404);
  });

  it("are Premium's: 403 on Free, and not listed in the projects", async () => {
    const sb = await start({ seed: seed(), gitlabTier: "free" });
    expect((await call(sb, "GET", "/api/v4/groups/acme/protected_branches")).status).toBe(403);
    const listed = await call(sb, "GET", BRANCHES);
    expect(listed.body.map((one: { name: string }) => one.name)).toEqual(["main", "release/*"]);
  });
});

describe("protected tags", () => {
  it("lists, protects and unprotects, with no update", async () => {
    const sb = await start();
    const tags = "/api/v4/projects/acme%2Fapi/protected_tags";
    expect((await call(sb, "GET", tags)).body).toEqual([
      {
        name: "v*",
        create_access_levels: [
          expect.objectContaining({ access_level: 40, access_level_description: "Maintainers" }),
        ],
      },
    ]);
    const again = await call(sb, "POST", tags, { body: { name: "v*", create_access_level: 30 } });
    expect(again.status).toBe(409);
    expect((await call(sb, "PATCH", `${tags}/v*`, { body: {} })).status).toBe(405);
    expect((await call(sb, "DELETE", `${tags}/v*`)).status).toBe(204);
    const created = await call(sb, "POST", tags, { body: { name: "v*", create_access_level: 30 } });
    expect(created.status).toBe(201);
    expect(created.body.create_access_levels[0].access_level).toBe(30);
  });
});
