import { describeFailure } from "../core/failure-text.js";
import { describeSelector } from "../config/glob.js";
import type { DesiredState, ScopedEntry } from "../config/model.js";
import type { ResourceReader } from "../resources/context.js";
import { expandRepositories } from "./expand.js";

/** What one repository entry selects on the service, or why that could not be read. */
export interface EntryMatch {
  entry: ScopedEntry;
  /** `owner/name` as the service spells them, in listing order. */
  repositories: string[];
  error?: string;
}

/**
 * Which repositories each repository entry selects now (`validate --matches`): globs are listed and,
 * with `where`, matched by custom property, exactly as a plan expands them.
 */
export async function entryMatches(
  state: DesiredState,
  readers: ReadonlyMap<string, ResourceReader>,
): Promise<EntryMatch[]> {
  const expansion = await expandRepositories(state, readers);
  return state.repositories.map((entry) => {
    const failed = expansion.errors.find((item) => item.entry === entry);
    const repositories = expansion.repos
      .filter((repo) => repo.entries.includes(entry))
      .map((repo) => `${repo.owner}/${repo.name}`);
    return failed === undefined
      ? { entry, repositories }
      : { entry, repositories, error: describeFailure(failed.error) };
  });
}

/** The matches as `validate` prints them: one line per entry, with the place it was written. */
export function describeMatches(matches: readonly EntryMatch[]): string {
  const lines = matches.map(({ entry, repositories, error }) => {
    const where = `${describeSelector(entry.selector)} (${entry.origin.file}:${entry.origin.line})`;
    if (error !== undefined) return `  ${where}: could not be read: ${error}`;
    return `  ${where}: ${repositories.length === 0 ? "nothing" : repositories.join(", ")}`;
  });
  return `Repository entries select, on the service now:\n${lines.join("\n")}\n`;
}
