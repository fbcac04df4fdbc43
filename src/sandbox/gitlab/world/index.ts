import { z } from "zod";
import { check, login, type SeedPath, timestamp } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { ok, requireCaller } from "../http.js";
import { visibleGroup, visibleProject } from "./access.js";
import type { Group, GroupRole } from "./records.js";
import { group, planningUser, project } from "./shapes.js";

/**
 * GitLab's world: its users, groups and projects, and their own reads (the caller, a group, a
 * project). The seed's `users` are the same people on both services, with the same tokens: the
 * fields read here are described as GitHub's world describes them (core/seed.ts).
 */

const groupRole = z.enum(["guest", "planner", "reporter", "developer", "maintainer", "owner"]);

export const gitlabWorld = gitlabArea({
  name: "world",
  seed: {
    users: {
      login,
      id: z.number().int().positive(),
      name: z.string().nullable().default(null),
      token: z.string().min(1).optional(),
      site_admin: z.boolean().default(false),
    },
    groups: {
      id: z.number().int().positive(),
      path: z.string().regex(/^[A-Za-z0-9_.-]+$/, "expected a group path"),
      name: z.string(),
      members: z.record(login, groupRole).default({}),
    },
    projects: {
      id: z.number().int().positive(),
      group: z.string(),
      path: z.string().regex(/^[A-Za-z0-9_.-]+$/, "expected a project path"),
      name: z.string(),
      description: z.string().default(""),
      default_branch: z.string().default("main"),
      created_at: timestamp.default("2026-01-02T09:00:00Z"),
    },
  },
  keys: { groups: "path", projects: "id" },
  demo: {
    groups: [
      {
        id: 1,
        path: "acme",
        name: "Acme",
        members: { "octo-admin": "owner", "octo-reader": "guest", "octo-dev": "developer" },
      },
      { id: 2, path: "partners", name: "Partners", members: { "octo-admin": "owner" } },
    ],
    projects: [
      { id: 1, group: "acme", path: "api", name: "api", description: "The public API service" },
      { id: 2, group: "acme", path: "web", name: "web", description: "The web front end" },
    ],
  },
  build(world, seed) {
    for (const user of seed.users) {
      const record = { id: user.id, username: user.login, name: user.name, admin: user.site_admin };
      world.users.set(user.id, record);
      world.usersByName.set(user.login.toLowerCase(), record);
      if (user.token !== undefined) world.tokens.set(user.token, record);
    }
    seed.groups.forEach((groupSeed, index) => {
      const path: SeedPath = ["groups", index];
      check(
        !world.groups.has(groupSeed.id),
        [...path, "id"],
        `group id ${groupSeed.id} is used twice`,
      );
      check(
        !world.groupsByPath.has(groupSeed.path.toLowerCase()),
        [...path, "path"],
        `group path '${groupSeed.path}' is used twice`,
      );
      const built: Group = {
        id: groupSeed.id,
        path: groupSeed.path,
        name: groupSeed.name,
        members: new Map<number, GroupRole>(),
      };
      for (const [username, role] of Object.entries(groupSeed.members)) {
        const user = world.user(username);
        check(user !== undefined, [...path, "members", username], `unknown user '${username}'`);
        built.members.set(user.id, role);
      }
      world.groups.set(built.id, built);
      world.groupsByPath.set(built.path.toLowerCase(), built);
      world.seeded.groups.push(built);
    });
    seed.projects.forEach((projectSeed, index) => {
      const path: SeedPath = ["projects", index];
      const owner = world.groupsByPath.get(projectSeed.group.toLowerCase());
      check(owner !== undefined, [...path, "group"], `unknown group '${projectSeed.group}'`);
      check(
        !world.projects.has(projectSeed.id),
        [...path, "id"],
        `project id ${projectSeed.id} is used twice`,
      );
      const built = {
        id: projectSeed.id,
        group: owner,
        path: projectSeed.path,
        name: projectSeed.name,
        description: projectSeed.description,
        default_branch: projectSeed.default_branch,
        created_at: projectSeed.created_at,
      };
      world.projects.set(built.id, built);
      world.seeded.projects.push(built);
      world.projectsByPath.set(`${owner.path}/${built.path}`.toLowerCase(), built);
    });
  },
  routes: [
    {
      // The caller's own account.
      method: "GET",
      pattern: "/api/v4/user",
      handler: (ctx) => ok(planningUser(ctx.base, requireCaller(ctx))),
    },
    {
      method: "GET",
      pattern: "/api/v4/groups/:id",
      handler: (ctx) => ok(group(ctx.base, visibleGroup(ctx, ctx.params.id))),
    },
    {
      method: "GET",
      pattern: "/api/v4/projects/:id",
      handler: (ctx) => ok(project(ctx.base, visibleProject(ctx))),
    },
  ],
});
