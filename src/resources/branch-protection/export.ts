import {
  type CanonicalProtection,
  fromRead,
  PROTECTION_SHAPE,
  protectedBranches,
  protectionPath,
} from "../classic-protection.js";
import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { toBody } from "./canonical.js";
import type { BranchProtectionSettings, BranchProtections } from "./settings.js";

/**
 * The desired-state settings that reproduce a canonical record exactly (used by export): the body
 * written for an unprotected branch has the settings' shape, with every field present.
 */
export function toSettings(canonical: CanonicalProtection): BranchProtectionSettings {
  return toBody(canonical, null) as BranchProtectionSettings;
}

/** Every protected branch of a repository, as settings that plan as no change. */
export async function exportProtections(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<BranchProtections | undefined> {
  const protections: Record<string, BranchProtectionSettings> = {};
  for (const branch of await protectedBranches(reader, repo)) {
    const path = protectionPath(repo, branch);
    const read = await reader.getOrAbsent(path, PROTECTION_SHAPE);
    // Unprotected since the list was read: nothing to export for it.
    if (read.kind === "absent") continue;
    protections[branch] = toSettings(fromRead(mustFind(read, path)));
  }
  return Object.keys(protections).length > 0 ? protections : undefined;
}
