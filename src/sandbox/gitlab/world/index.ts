import * as z from "zod";
import { check, login, maxOf, type SeedPath, timestamp } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { MEMBER_ROLES } from "./access-levels.js";
import type { Group, Project, Role } from "./records.js";
import { worldRoutes } from "./routes.js";

/**
 * GitLab's world: its users, groups (and subgroups) and projects, and their own reads (the caller,
 * groups, projects, their listings and members). The seed's `users` are the same people on both
 * services, with the same tokens: the fields read here are described as GitHub's world describes
 * them (core/seed.ts).
 */

const role = z.enum(MEMBER_ROLES);
const visibility = z.enum(["private", "internal", "public"]).default("private");
const path = (what: string) => z.string().regex(/^[A-Za-z0-9_.-]+$/, `expected a ${what} path`);

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
      path: path("group"),
      name: z.string(),
      /** The parent group's full path: this group is its subgroup (`acme/platform`). */
      parent: z.string().optional(),
      visibility,
      members: z.record(login, role).default({}),
    },
    projects: {
      id: z.number().int().positive(),
      /** The full path of the group it lives in (`acme`, `acme/platform`). */
      group: z.string(),
      path: path("project"),
      name: z.string(),
      description: z.string().default(""),
      default_branch: z.string().default("main"),
      created_at: timestamp.default("2026-01-02T09:00:00Z"),
      archived: z.boolean().default(false),
      visibility,
      members: z.record(login, role).default({}),
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
      // A subgroup: acme's members are its members too; octo-reader is a Reporter here.
      {
        id: 3,
        path: "platform",
        name: "Platform",
        parent: "acme",
        members: { "octo-reader": "reporter" },
      },
    ],
    projects: [
      { id: 1, group: "acme", path: "api", name: "api", description: "The public API service" },
      { id: 2, group: "acme", path: "web", name: "web", description: "The web front end" },
      {
        id: 3,
        group: "acme/platform",
        path: "infra",
        name: "infra",
        description: "Shared infrastructure",
        members: { mona: "maintainer" },
      },
    ],
  },
  build(world, seed) {
    for (const user of seed.users) {
      const record = { id: user.id, username: user.login, name: user.name, admin: user.site_admin };
      world.users.set(user.id, record);
      world.usersByName.set(user.login.toLowerCase(), record);
      if (user.token !== undefined) world.tokens.set(user.token, record);
    }
    const members = (entries: Record<string, Role>, at: SeedPath) => {
      const built = new Map<number, Role>();
      for (const [username, granted] of Object.entries(entries)) {
        const user = world.user(username);
        check(user !== undefined, [...at, "members", username], `unknown user '${username}'`);
        built.set(user.id, granted);
      }
      return built;
    };
    seed.groups.forEach((groupSeed, index) => {
      const at: SeedPath = ["groups", index];
      check(
        !world.groups.has(groupSeed.id),
        [...at, "id"],
        `group id ${groupSeed.id} is used twice`,
      );
      const parent =
        groupSeed.parent === undefined
          ? null
          : world.groupsByPath.get(groupSeed.parent.toLowerCase());
      check(
        parent !== undefined,
        [...at, "parent"],
        `unknown group '${groupSeed.parent}' (a parent is listed before its subgroups)`,
      );
      const fullPath = parent === null ? groupSeed.path : `${parent.fullPath}/${groupSeed.path}`;
      check(
        !world.groupsByPath.has(fullPath.toLowerCase()),
        [...at, "path"],
        `group path '${fullPath}' is used twice`,
      );
      const built: Group = {
        id: groupSeed.id,
        path: groupSeed.path,
        name: groupSeed.name,
        parent,
        fullPath,
        fullName: parent === null ? groupSeed.name : `${parent.fullName} / ${groupSeed.name}`,
        visibility: groupSeed.visibility,
        members: members(groupSeed.members, at),
      };
      world.groups.set(built.id, built);
      world.groupsByPath.set(fullPath.toLowerCase(), built);
      world.seeded.groups.push(built);
    });
    seed.projects.forEach((projectSeed, index) => {
      const at: SeedPath = ["projects", index];
      const owner = world.groupsByPath.get(projectSeed.group.toLowerCase());
      check(owner !== undefined, [...at, "group"], `unknown group '${projectSeed.group}'`);
      check(
        !world.projects.has(projectSeed.id),
        [...at, "id"],
        `project id ${projectSeed.id} is used twice`,
      );
      const fullPath = `${owner.fullPath}/${projectSeed.path}`.toLowerCase();
      check(
        !world.projectsByPath.has(fullPath),
        [...at, "path"],
        `project path '${owner.fullPath}/${projectSeed.path}' is used twice`,
      );
      const built: Project = {
        id: projectSeed.id,
        group: owner,
        path: projectSeed.path,
        name: projectSeed.name,
        description: projectSeed.description,
        default_branch: projectSeed.default_branch,
        created_at: projectSeed.created_at,
        archived: projectSeed.archived,
        visibility: projectSeed.visibility,
        members: members(projectSeed.members, at),
      };
      world.projects.set(built.id, built);
      world.seeded.projects.push(built);
      world.projectsByPath.set(fullPath, built);
    });
  },
  /**
   * Generated projects `project-00001` … live in the generation's groups in turn, with ids after
   * the seed's; under the `full` profile octo-dev is a Developer of each.
   */
  generateProjects(seed, { groups, profile }) {
    const firstId = maxOf(seed.projects.map((entry) => entry.id));
    return (entry, index) => {
      const path = `project-${String(index).padStart(5, "0")}`;
      const group = groups[(index - 1) % groups.length]!;
      Object.assign(entry, { id: firstId + index, group, path, name: path });
      if (profile === "full") entry.members = { "octo-dev": "developer" };
    };
  },
  routes: worldRoutes,
});
