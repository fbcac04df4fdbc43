import {
  fromRead,
  PROTECTION_SHAPE,
  protectedBranches,
  protectionPath,
} from "../classic-protection.js";
import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { replacementFor } from "./classic.js";
import type { Rulesets } from "./settings.js";

/**
 * The configuration that moves branches from classic protection to rulesets: for every protected
 * branch, a ruleset that enforces what its protection enforces and replaces it. What has no exact
 * equivalent is said in comments (and again as notes of the plan), never guessed.
 */

export interface Migration {
  rulesets: Rulesets;
  /** One line each: what a branch's protection has that its ruleset does not carry over. */
  comments: string[];
}

/** The name of the ruleset that replaces a branch's classic protection. */
function migratedName(branch: string): string {
  return `protect ${branch}`;
}

/**
 * Reads the classic protection of `branches` (every protected branch when undefined) and writes the
 * rulesets that replace them, in `evaluate` first when staged. A read that fails throws ReadFailed.
 */
export async function migrationOf(
  reader: ResourceReader,
  repo: RepoRef,
  branches: readonly string[] | undefined,
  stage: boolean,
): Promise<Migration> {
  const full = `${repo.owner}/${repo.name}`;
  const names = branches ?? (await protectedBranches(reader, repo));
  const rulesets: Rulesets = {};
  const comments: string[] = [];
  for (const branch of names) {
    const path = protectionPath(repo, branch);
    const read = await reader.getOrAbsent(path, PROTECTION_SHAPE);
    if (read.kind === "absent") {
      comments.push(`${full} ${branch}: no classic protection; nothing to migrate`);
      continue;
    }
    const record = mustFind(read, path);
    const replacement = replacementFor(
      branch,
      fromRead(record),
      record.required_signatures?.enabled === true,
      stage ? "evaluate" : "active",
    );
    rulesets[migratedName(branch)] = replacement.settings;
    comments.push(...replacement.notes.map((note) => `${full} ${branch}: ${note}`));
  }
  return { rulesets, comments };
}
