import * as z from "zod";
import { check, login } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { accessLevelOf, type Role } from "../world/access-levels.js";
import { membershipExpiry } from "../world/records.js";
import {
  memberRoleFields,
  memberRoles,
  membershipRole,
  PERMISSION_NAMES,
  topOfSource,
} from "./member-roles.js";
import { membersRoutes } from "./routes.js";

/**
 * Members of groups and projects (the `members` kind): GitLab's members writes and the user
 * look-up, over the world's memberships, and custom roles. The seed's `member_expiry` gives direct
 * memberships an end date (`YEAR-MONTH-DAY`) and `member_custom_roles` a custom role by name; the
 * world's `members` gives the memberships themselves. `member_roles` lists the custom roles: a
 * top-level group's (`group`, GitLab.com's) or, without one, the instance's.
 */
const expiry = z
  .record(login, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YEAR-MONTH-DAY"))
  .default({});

const customRoles = z.record(login, z.string().min(1)).default({});

const LEVEL_NAMES = ["guest", "planner", "reporter", "developer", "maintainer", "owner"] as const;

export const members = gitlabArea({
  name: "members",
  seed: {
    groups: { member_expiry: expiry, member_custom_roles: customRoles },
    projects: { member_expiry: expiry, member_custom_roles: customRoles },
    member_roles: {
      name: z.string().min(1),
      base_access_level: z.enum(LEVEL_NAMES),
      description: z.string().nullable().default(null),
      group: z.string().min(1).optional(),
      permissions: z.array(z.enum(PERMISSION_NAMES as [string, ...string[]])).default([]),
    },
  },
  demo: {
    // acme/api: direct members of several levels beside the owners it inherits from acme
    // (octo-admin), one raising an inherited level (octo-reader, Guest in acme) and one that ends.
    projects: [
      {
        id: 1,
        members: { mona: "maintainer", "octo-reader": "reporter", hubot: "developer" },
        member_expiry: { hubot: "2030-06-30" },
        // A Reporter who may also read the vulnerability report: a custom role of acme.
        member_custom_roles: { "octo-reader": "Reporter + security" },
      },
    ],
    // The instance's custom roles (the sandbox is self-managed by default) and one of acme's,
    // which members under acme may have on GitLab.com (`--gitlab-offering com`).
    member_roles: [
      {
        name: "Reporter + security",
        base_access_level: "reporter",
        description: "Reporter who reads and triages vulnerabilities",
        permissions: ["read_vulnerability", "admin_vulnerability"],
      },
      { name: "Guest + code", base_access_level: "guest", permissions: ["read_code"] },
      {
        name: "Acme release manager",
        base_access_level: "developer",
        group: "acme",
        permissions: ["admin_merge_request", "archive_project"],
      },
    ],
  },
  build(world, seed) {
    const roles = memberRoles(world);
    seed.member_roles.forEach((entry, index) => {
      const group = entry.group === undefined ? null : world.group(entry.group);
      check(
        group !== undefined && (group === null || group.parent === null),
        ["member_roles", index, "group"],
        `'${entry.group}' is no top-level group: custom roles belong to one or to the instance`,
      );
      const id = roles.nextId++;
      roles.byId.set(id, {
        id,
        name: entry.name,
        description: entry.description,
        group,
        baseAccessLevel: accessLevelOf(entry.base_access_level as Role),
        permissions: new Set(entry.permissions),
      });
    });
    const expiries = [
      ...seed.groups.map((entry, index) => ({
        record: world.seeded.groups[index],
        entry,
        at: ["groups", index] as (string | number)[],
      })),
      ...seed.projects.map((entry, index) => ({
        record: world.seeded.projects[index],
        entry,
        at: ["projects", index] as (string | number)[],
      })),
    ];
    for (const { record, entry, at } of expiries) {
      if (record === undefined) continue;
      for (const [username, date] of Object.entries(entry.member_expiry)) {
        const user = world.user(username);
        check(
          user !== undefined && record.members.has(user.id),
          [...at, "member_expiry", username],
          `'${username}' is no direct member here`,
        );
        membershipExpiry(record).set(user.id, date);
      }
      for (const [username, name] of Object.entries(entry.member_custom_roles)) {
        const user = world.user(username);
        const role = user && record.members.get(user.id);
        const found = [...roles.byId.values()].find(
          (candidate) =>
            candidate.name === name &&
            (candidate.group === null || candidate.group === topOfSource(record)),
        );
        check(
          user !== undefined && role !== undefined,
          [...at, "member_custom_roles", username],
          `'${username}' is no direct member here`,
        );
        check(
          found !== undefined && found.baseAccessLevel === accessLevelOf(role!),
          [...at, "member_custom_roles", username],
          `'${name}' is no custom role of this top-level group or the instance whose base level is the member's`,
        );
        membershipRole(record).set(user!.id, found!.id);
      }
    }
  },
  memberFields: memberRoleFields,
  routes: membersRoutes,
});
