import * as z from "zod";
import { check, type SeedPath } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { pushingKey } from "../deploy-keys/records.js";
import type { GitlabWorld, Project } from "../world/records.js";
import {
  type AccessEntry,
  type Grantee,
  groupProtectedBranchesOf,
  newEntry,
  type ProtectedBranch,
  protectedBranchesOf,
  protectedTagsOf,
  protectionIds,
} from "./records.js";
import { protectedBranchRoutes } from "./routes.js";
import { protectedTagRoutes } from "./tag-routes.js";

/**
 * Protected branches and tags (the `protected_branches` and `protected_tags` kinds): one area, as
 * both hold GitLab's access-level entries (records.ts). A seed's entry is a role level (0, 30, 40,
 * 60) or `{user}`, `{group}` (a full path), `{deploy_key}` (an id of a key the project's `deploy_keys` enable with `can_push`, the deploy-keys area's).
 */

const entry = z.union([
  z.number().int(),
  z.strictObject({ user: z.string() }),
  z.strictObject({ group: z.string() }),
  z.strictObject({ deploy_key: z.number().int().positive() }),
]);
const entries = z.array(entry).optional();

const branch = z.strictObject({
  name: z.string().min(1),
  push: entries,
  merge: entries,
  unprotect: entries,
  allow_force_push: z.boolean().default(false),
  code_owner_approval_required: z.boolean().default(false),
});
const branches = z.array(branch).default([]);

type SeedEntry = z.infer<typeof entry>;
type SeedBranch = z.infer<typeof branch>;

function grantee(
  world: GitlabWorld,
  project: Project | undefined,
  written: SeedEntry,
  at: SeedPath,
): Grantee {
  if (typeof written === "number") return { kind: "role", level: written };
  if ("user" in written) {
    const user = world.user(written.user);
    check(user !== undefined, at, `unknown user '${written.user}'`);
    return { kind: "user", user };
  }
  if ("group" in written) {
    const group = world.group(written.group);
    check(group !== undefined, at, `unknown group '${written.group}'`);
    return { kind: "group", group };
  }
  const key = project === undefined ? undefined : pushingKey(project, written.deploy_key);
  check(key !== undefined, at, `deploy key ${written.deploy_key} is not enabled for the project`);
  return { kind: "deploy_key", key };
}

function built(
  world: GitlabWorld,
  project: Project | undefined,
  seed: SeedBranch,
  at: SeedPath,
): ProtectedBranch {
  const list = (written: SeedEntry[] | undefined, name: string): AccessEntry[] =>
    (written ?? [40]).map((item, index) =>
      newEntry(world, grantee(world, project, item, [...at, name, index])),
    );
  return {
    id: protectionIds(world).ref++,
    name: seed.name,
    push: list(seed.push, "push"),
    merge: list(seed.merge, "merge"),
    unprotect: list(seed.unprotect, "unprotect"),
    allow_force_push: seed.allow_force_push,
    code_owner_approval_required: seed.code_owner_approval_required,
  };
}

export const protectedRefs = gitlabArea({
  name: "protected-refs",
  seed: {
    projects: {
      protected_branches: branches,
      protected_tags: z
        .array(z.strictObject({ name: z.string().min(1), create: entries }))
        .default([]),
    },
    groups: {
      /** The group's own protected branches (Premium), inherited by every project below it. */
      protected_branches: branches,
    },
  },
  demo: {
    projects: [
      {
        id: 1,
        protected_branches: [
          {
            name: "main",
            push: [40],
            merge: [30, { user: "octo-dev" }],
            unprotect: [40],
          },
          { name: "release/*", push: [0], merge: [40] },
        ],
        protected_tags: [{ name: "v*", create: [40] }],
      },
    ],
  },
  build(world, seed) {
    seed.groups.forEach((groupSeed, index) => {
      const group = world.seeded.groups[index];
      if (group === undefined) return;
      groupSeed.protected_branches.forEach((branchSeed, at) => {
        const path: SeedPath = ["groups", index, "protected_branches", at];
        check(
          !groupProtectedBranchesOf(group).has(branchSeed.name),
          [...path, "name"],
          `branch '${branchSeed.name}' is protected twice`,
        );
        groupProtectedBranchesOf(group).set(
          branchSeed.name,
          built(world, undefined, branchSeed, path),
        );
      });
    });
    seed.projects.forEach((projectSeed, index) => {
      const project = world.seeded.projects[index];
      if (project === undefined) return;
      projectSeed.protected_branches.forEach((branchSeed, at) => {
        const path: SeedPath = ["projects", index, "protected_branches", at];
        check(
          !protectedBranchesOf(project).has(branchSeed.name),
          [...path, "name"],
          `branch '${branchSeed.name}' is protected twice`,
        );
        protectedBranchesOf(project).set(branchSeed.name, built(world, project, branchSeed, path));
      });
      projectSeed.protected_tags.forEach((tagSeed, at) => {
        const path: SeedPath = ["projects", index, "protected_tags", at];
        check(
          !protectedTagsOf(project).has(tagSeed.name),
          [...path, "name"],
          `tag '${tagSeed.name}' is protected twice`,
        );
        protectedTagsOf(project).set(tagSeed.name, {
          id: protectionIds(world).ref++,
          name: tagSeed.name,
          create: (tagSeed.create ?? [40]).map((item, entryIndex) =>
            newEntry(world, grantee(world, project, item, [...path, "create", entryIndex])),
          ),
        });
      });
    });
  },
  /** The `full` profile: main protected, pushes by Maintainers, merges by Developers. */
  generateProjects:
    (_seed, { profile }) =>
    (entry) => {
      if (profile === "full")
        entry.protected_branches = [{ name: "main", push: [40], merge: [30] }];
    },
  routes: [...protectedBranchRoutes, ...protectedTagRoutes],
});
