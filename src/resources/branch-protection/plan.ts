import { type Change, newChange, type PlannedRequest } from "../../core/plan.js";
import {
  enabled,
  fromRead,
  PROTECTION_SHAPE,
  protectionPath,
  record,
  UNPROTECTED_DEFAULTS,
} from "../classic-protection.js";
import { changeError, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { targetOf, toBody } from "./canonical.js";
import type { BranchProtectionSettings, BranchProtections } from "./settings.js";

export interface ProtectionPlanInput {
  reader: ResourceReader;
  repo: RepoRef;
  branch: string;
  desired: BranchProtectionSettings | null;
}

/** Reads one branch's protection and plans the change that makes it match the desired settings. */
export async function planBranchProtection({
  reader,
  repo,
  branch,
  desired,
}: ProtectionPlanInput): Promise<Change> {
  const scope = `${repo.owner}/${repo.name}`;
  const base = newChange(reader.target, scope, "branch_protection", branch);
  const path = protectionPath(repo, branch);
  const read = await reader.getOrAbsent(path, PROTECTION_SHAPE);
  if (read.kind === "error") return { ...base, error: read.error };
  if (read.kind === "absent" && read.detail !== "Branch not protected") {
    return {
      ...base,
      error: changeError(
        read.detail === "Branch not found"
          ? `branch '${branch}' does not exist in ${scope}`
          : `repository ${scope} was not found (or ${reader.credential} cannot see it)`,
        "GET",
        path,
        404,
      ),
    };
  }
  const live = read.kind === "found" ? fromRead(read.data) : null;
  const notes: string[] = [];
  if (read.kind === "found" && enabled(record(read.data)?.required_signatures)) {
    notes.push("required_signatures is enabled; the protection PUT cannot change it (not managed)");
  }
  const withNotes = (change: Change): Change => (notes.length > 0 ? { ...change, notes } : change);
  base.live_fingerprint = fingerprint(live);

  if (desired === null) {
    if (live === null) return withNotes(base);
    return withNotes({
      ...base,
      action: "delete",
      diff: diffValues(live, {}),
      requests: [{ method: "DELETE", path }],
    });
  }
  const target = targetOf(desired, live);
  // A new protection is shown as what it changes from an unprotected branch (every feature off).
  const diff = diffValues(live ?? UNPROTECTED_DEFAULTS, target);
  if (live !== null && diff.length === 0) return withNotes(base);
  const request: PlannedRequest = { method: "PUT", path, body: toBody(target, live) };
  return withNotes({
    ...base,
    action: live === null ? "create" : "update",
    diff,
    requests: [request],
  });
}

/** Every branch the value names, each read and planned on its own. */
export function planBranchProtections(
  reader: ResourceReader,
  repo: RepoRef,
  value: BranchProtections,
): Promise<Change[]> {
  return Promise.all(
    Object.entries(value).map(([branch, desired]) =>
      planBranchProtection({ reader, repo, branch, desired }),
    ),
  );
}
