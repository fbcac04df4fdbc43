import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project, User } from "../world/records.js";

/**
 * Protected branches and tags of projects, and the protected branches of groups (Premium), with
 * the access-level entries both kinds of protection hold (GitLab's ProtectedRefAccess): one area
 * because branches and tags share the entries, their ids, their checks and their shapes.
 */

/** Who an entry lets push, merge, unprotect or create: a role, a user, a group or a deploy key. */
export type Grantee =
  | { kind: "role"; level: number }
  | { kind: "user"; user: User }
  | { kind: "group"; group: Group }
  | { kind: "deploy_key"; key: DeployKey };

export interface AccessEntry {
  id: number;
  grantee: Grantee;
}

export interface ProtectedBranch {
  id: number;
  name: string;
  push: AccessEntry[];
  merge: AccessEntry[];
  unprotect: AccessEntry[];
  allow_force_push: boolean;
  code_owner_approval_required: boolean;
}

export interface ProtectedTag {
  id: number;
  name: string;
  create: AccessEntry[];
}

/** A deploy key enabled for a project with write access (what a protection may name). */
export interface DeployKey {
  id: number;
  title: string;
}

/** A project's protected branches by name (exact names and wildcards alike, case-sensitive). */
export const protectedBranchesOf = attached(
  (_project: Project) => new Map<string, ProtectedBranch>(),
);

/** A group's protected branches (Premium), which every project below it inherits. */
export const groupProtectedBranchesOf = attached(
  (_group: Group) => new Map<string, ProtectedBranch>(),
);

export const protectedTagsOf = attached((_project: Project) => new Map<string, ProtectedTag>());

/** Ids are sequences across the world: protections, and their access-level entries. */
export const protectionIds = attached((_world: GitlabWorld) => ({ ref: 1, entry: 1 }));

/** A new entry with the next id. */
export function newEntry(world: GitlabWorld, grantee: Grantee): AccessEntry {
  const ids = protectionIds(world);
  return { id: ids.entry++, grantee };
}

/** The protections that apply to a project's branches: its own, then its groups' (inherited). */
export function inheritedBranches(project: Project): ProtectedBranch[] {
  const found: ProtectedBranch[] = [];
  for (let group: Group | null = project.group; group !== null; group = group.parent) {
    found.push(...groupProtectedBranchesOf(group).values());
  }
  return found;
}
