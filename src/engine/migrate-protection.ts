import type { DesiredState } from "../config/model.js";
import { describeFailure } from "../core/failure-text.js";
import { ReadFailed, type ResourceReader } from "../resources/context.js";
import { type Migration, migrationOf } from "../resources/ruleset/migration.js";
import { expandRepositories } from "./expand.js";

/**
 * `forgeplan migrate protection-to-rulesets`: reads the classic protections a configuration (or a
 * list of repositories) selects and builds desired-state data with a ruleset per protected branch,
 * each replacing its classic protection. Planned, the ruleset is created (optionally first only in
 * evaluate) and the classic protection deleted only after the branch's rules are seen to cover it.
 */

export class MigrationError extends Error {}

export type MigrationSource =
  /** Every protected branch of these repositories (OWNER/REPO), on this target. */
  | { kind: "repos"; repos: readonly string[]; target: string }
  /** The branches under `branch_protection` of the repositories the configuration selects. */
  | { kind: "config"; state: DesiredState };

export interface MigrationDocument {
  document: Record<string, unknown>;
  /** YAML comments: what has no exact equivalent, and what to take out of the configuration. */
  comments: string[];
}

interface Selected {
  target: string;
  owner: string;
  name: string;
  /** undefined: every protected branch. */
  branches?: string[];
}

function parseRepo(fullName: string): { owner: string; name: string } {
  const [owner, name, extra] = fullName.split("/");
  if (!owner || !name || extra !== undefined) {
    throw new MigrationError(`--repo expects OWNER/REPO, got '${fullName}'`);
  }
  return { owner, name };
}

async function select(
  source: MigrationSource,
  readers: ReadonlyMap<string, ResourceReader>,
): Promise<Selected[]> {
  if (source.kind === "repos") {
    return source.repos.map((full) => ({ target: source.target, ...parseRepo(full) }));
  }
  const expansion = await expandRepositories(source.state, readers);
  const failed = expansion.errors[0];
  if (failed !== undefined) {
    const { owner } = failed.entry.selector;
    throw new MigrationError(
      `cannot list the repositories of ${owner}: ${describeFailure(failed.error)}`,
    );
  }
  return expansion.repos.flatMap((repo) => {
    const protections = repo.settings.branch_protection as Record<string, unknown> | undefined;
    const branches = Object.entries(protections ?? {})
      .filter(([, desired]) => desired !== null)
      .map(([branch]) => branch);
    return branches.length === 0
      ? []
      : [{ target: repo.target, owner: repo.owner, name: repo.name, branches }];
  });
}

export async function migrateProtections(
  source: MigrationSource,
  readers: ReadonlyMap<string, ResourceReader>,
  options: { stage: boolean },
): Promise<MigrationDocument> {
  const selected = await select(source, readers);
  const comments: string[] = [];
  const repositories: Array<Record<string, unknown>> = [];
  for (const repo of selected) {
    const reader = readers.get(repo.target);
    if (!reader) throw new MigrationError(`target '${repo.target}' has no connection`);
    const full = `${repo.owner}/${repo.name}`;
    let migration: Migration;
    try {
      migration = await migrationOf(reader, repo, repo.branches, options.stage);
    } catch (error) {
      if (error instanceof ReadFailed) {
        throw new MigrationError(`cannot read the protections of ${full}: ${error.message}`);
      }
      throw error;
    }
    comments.push(...migration.comments);
    const names = Object.keys(migration.rulesets);
    if (names.length === 0) continue;
    if (source.kind === "config") {
      const branches = names
        .map((name) => migration.rulesets[name]?.replaces_protection ?? [])
        .flat();
      comments.push(
        `${full}: take ${branches.map((branch) => `branch_protection.${branch}`).join(", ")} out of the configuration; the rulesets below replace them`,
      );
    }
    repositories.push({ name: full, target: repo.target, rulesets: migration.rulesets });
  }
  return { document: { version: 1, repositories }, comments };
}
