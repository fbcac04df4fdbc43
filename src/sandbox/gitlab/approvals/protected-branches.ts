import { attached } from "../../core/attached.js";
import type { GitlabWorld, Project } from "../world/records.js";

/**
 * The protected branches an approval rule may be scoped to, by name with their ids: a minimal
 * look-up this area keeps until the protected-branches area (issue #36, item 3) lands, which then
 * owns protected branches and `GET /projects/:id/protected_branches`; the rules keep ids only, so
 * joining them is replacing this look-up with that area's records.
 */
export interface ProtectedBranch {
  id: number;
  name: string;
}

export const protectedBranchesOf = attached(
  (_project: Project) => new Map<string, ProtectedBranch>(),
);
export const protectedBranchIds = attached((_world: GitlabWorld) => ({ next: 1 }));

export function protectBranch(world: GitlabWorld, project: Project, name: string): ProtectedBranch {
  const branches = protectedBranchesOf(project);
  const known = branches.get(name);
  if (known !== undefined) return known;
  const made = { id: protectedBranchIds(world).next++, name };
  branches.set(name, made);
  return made;
}

/** A protected branch by id, of this project only. */
export function protectedBranchById(project: Project, id: number): ProtectedBranch | undefined {
  for (const branch of protectedBranchesOf(project).values()) if (branch.id === id) return branch;
  return undefined;
}

/**
 * A protected branch as "List protected branches" answers it (docs, "Protected branches API"),
 * its access levels as GitLab's defaults for a branch protected without them (Maintainers).
 */
export function protectedBranchShape(branch: ProtectedBranch): Record<string, unknown> {
  const maintainers = [
    {
      id: branch.id,
      access_level: 40,
      access_level_description: "Maintainers",
      user_id: null,
      group_id: null,
    },
  ];
  return {
    id: branch.id,
    name: branch.name,
    push_access_levels: maintainers,
    merge_access_levels: maintainers,
    unprotect_access_levels: [],
    allow_force_push: false,
    code_owner_approval_required: false,
    inherited: false,
  };
}
