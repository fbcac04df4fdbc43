import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "./helpers.js";

/**
 * The group settings area's PUT, sent deliberately wrong (a sandbox of this folder's helpers,
 * which records nothing, so requests GitLab refuses are not held against the test).
 */

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

const put = async (path: string, token: string, body: unknown) => {
  const answer = await fetch(`${world.url}/api/v4/groups/${encodeURIComponent(path)}`, {
    method: "PUT",
    headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
};

describe("the sandbox's PUT /groups/:id", () => {
  it("answers as Grape and GitLab's Group model do, and only to an Owner", async () => {
    expect(await put("acme", "sandbox-dev", { description: "x" })).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await put("acme", "sandbox-admin", { project_creation_level: "everyone" })).toEqual({
      status: 400,
      body: { error: "project_creation_level does not have a valid value" },
    });
    expect(
      await put("acme", "sandbox-admin", {
        default_branch_protection_defaults: { allowed_to_push: [{ access_level: 50 }] },
      }),
    ).toEqual({
      status: 400,
      body: {
        error:
          "default_branch_protection_defaults[allowed_to_push][access_level] does not have a valid value",
      },
    });
    expect(await put("acme", "sandbox-admin", { two_factor_grace_period: -1 })).toEqual({
      status: 400,
      body: { message: { two_factor_grace_period: ["must be greater than or equal to 0"] } },
    });
  });

  it("keeps a group no narrower than its projects and subgroups, and no wider than its parent", async () => {
    expect((await put("acme", "sandbox-admin", { visibility: "public" })).status).toBe(200);
    expect((await put("acme/platform", "sandbox-admin", { visibility: "public" })).status).toBe(
      200,
    );
    expect(await put("acme", "sandbox-admin", { visibility: "private" })).toEqual({
      status: 400,
      body: {
        message: {
          visibility_level: [
            "private is not allowed since there are sub-groups with higher visibility.",
          ],
        },
      },
    });
    const answer = await put("acme/platform", "sandbox-admin", { description: "Platform" });
    expect(answer.body).toMatchObject({ description: "Platform", visibility: "public" });
    // A subgroup's answer has no prevent_sharing_groups_outside_hierarchy.
    expect(answer.body).not.toHaveProperty("prevent_sharing_groups_outside_hierarchy");
  });
});

const post = async (token: string, body: unknown) => {
  const answer = await fetch(`${world.url}/api/v4/groups`, {
    method: "POST",
    headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
};

describe("the sandbox's POST /groups", () => {
  it("creates a subgroup for who may create one, with its settings and its creator as Owner", async () => {
    // acme lets Maintainers create subgroups (its subgroup_creation_level); octo-dev is a Developer.
    expect(await post("sandbox-dev", { name: "sec", path: "sec", parent_id: 1 })).toMatchObject({
      status: 403,
    });
    expect(await post("sandbox-admin", { name: "x", path: "x", parent_id: 999 })).toEqual({
      status: 404,
      body: { message: "404 Group Not Found" },
    });
    const created = await post("sandbox-admin", {
      name: "Security",
      path: "sec",
      parent_id: 1,
      description: "Security tooling",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      full_path: "acme/sec",
      parent_id: 1,
      visibility: "private",
      description: "Security tooling",
    });
    const owners = await fetch(`${world.url}/api/v4/groups/acme%2Fsec/members`, {
      headers: { "PRIVATE-TOKEN": "sandbox-admin" },
    });
    expect((await owners.json()) as unknown[]).toEqual([
      expect.objectContaining({ username: "octo-admin", access_level: 50 }),
    ]);
    expect(await post("sandbox-admin", { name: "again", path: "sec", parent_id: 1 })).toEqual({
      status: 400,
      body: { message: 'Failed to save group {:path=>["has already been taken"]}' },
    });
    expect(
      await post("sandbox-admin", { name: "pub", path: "pub", parent_id: 1, visibility: "public" }),
    ).toEqual({
      status: 400,
      body: {
        message:
          'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}',
      },
    });
  });
});
