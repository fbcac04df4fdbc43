import { mustFind, readFailure, type RepoRef, type ResourceReader } from "../context.js";
import { exported } from "../exported.js";
import { BRANCH_LEVELS, GitlabNames, resolveLive, writtenEntry } from "../protected-ref-access.js";
import { BRANCH_SHAPE, LISTS } from "./canonical.js";
import { protectedBranchesPath } from "./plan.js";
import { type ProtectedBranches, type Protection, protectedBranchesSetting } from "./settings.js";

/**
 * The project's own protected branches as they are live, additive: every field GitLab shows
 * (unprotect levels and code owner approval where the tier has them). A group's protection the
 * project inherits is the group's, and is left out.
 */
export async function exportProtectedBranches(
  reader: ResourceReader,
  project: RepoRef,
): Promise<ProtectedBranches | undefined> {
  const path = protectedBranchesPath(project);
  const live = mustFind(await reader.list(path, undefined, BRANCH_SHAPE), path);
  const names = new GitlabNames(reader);
  const branches: Record<string, Protection> = {};
  for (const branch of live) {
    if (branch.inherited === true) continue;
    const value: Record<string, unknown> = {};
    for (const { key, answer } of LISTS) {
      const entries = branch[answer];
      if (entries === undefined) continue;
      const found = await resolveLive(names, BRANCH_LEVELS, entries);
      if (!found.ok) throw readFailure(found.error);
      value[key] = found.value.map((entry) => writtenEntry(entry.shown));
    }
    value.allow_force_push = branch.allow_force_push;
    if (branch.code_owner_approval_required !== undefined)
      value.code_owner_approval_required = branch.code_owner_approval_required;
    branches[branch.name] = value as Protection;
  }
  if (Object.keys(branches).length === 0) return undefined;
  return exported(protectedBranchesSetting.schema, { mode: "additive", branches }, path);
}
