import {
  newEntry,
  type ProtectedBranch,
  protectedBranchesOf,
  protectionIds,
} from "../protected-refs/records.js";
import { protectedBranch } from "../protected-refs/shapes.js";
import type { GitlabWorld, Project } from "../world/records.js";

/**
 * The protected branches an approval rule may be scoped to: the protected-refs area's records,
 * which own protected branches and `GET /projects/:id/protected_branches`; a rule keeps their ids.
 */

/**
 * The protection of `name` a seed's approval rule names: the project's, or a new one as GitLab
 * protects a branch given no access levels (Maintainers push and merge).
 */
export function protectBranch(world: GitlabWorld, project: Project, name: string): ProtectedBranch {
  const branches = protectedBranchesOf(project);
  const known = branches.get(name);
  if (known !== undefined) return known;
  const maintainers = () => [newEntry(world, { kind: "role", level: 40 })];
  const made: ProtectedBranch = {
    id: protectionIds(world).ref++,
    name,
    push: maintainers(),
    merge: maintainers(),
    unprotect: [],
    allow_force_push: false,
    code_owner_approval_required: false,
  };
  branches.set(name, made);
  return made;
}

/** A protected branch by id, of this project only. */
export function protectedBranchById(project: Project, id: number): ProtectedBranch | undefined {
  for (const branch of protectedBranchesOf(project).values()) if (branch.id === id) return branch;
  return undefined;
}

/** A protected branch as an approval rule shows it (approval rules are Premium: as Premium shows it). */
export function protectedBranchShape(branch: ProtectedBranch): Record<string, unknown> {
  return protectedBranch(branch, true, false);
}
