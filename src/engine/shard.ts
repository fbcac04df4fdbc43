import { createHash } from "node:crypto";
import { selectedName } from "../config/glob.js";
import { type DesiredState, type ScopedEntry, scopeState } from "../config/model.js";
import type { SelectingScope } from "../config/spec.js";
import { makePlan, type Plan } from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";
import { kindNamed, sectionNamed } from "../resources/index.js";
import { expandScope } from "./expand.js";

/**
 * Sharding: N matrix jobs each plan one part of the desired state, and together cover every resource
 * exactly once. Resources are partitioned by their repository, project, group or account (the
 * target plus that scope), through a hash that is the same on every machine, so a shard's part does
 * not depend on which runner it lands on or on the order of the config.
 */

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Parses `K/N` (1 ≤ K ≤ N); throws an Error whose message says what was wrong. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text);
  if (match === null) throw new Error(`expects K/N such as 1/4, got '${text}'`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) {
    throw new Error(`expects 1 ≤ K ≤ N, got '${text}'`);
  }
  return { index, count };
}

/** The shard (1-based) a partition key belongs to: the first 48 bits of its SHA-256, modulo N. */
export function shardOf(key: string, count: number): number {
  const hash = createHash("sha256").update(key.toLowerCase()).digest();
  return (hash.readUIntBE(0, 6) % count) + 1;
}

function owns(shard: Shard, target: string, scope: string): boolean {
  return shardOf(`${target}/${scope}`, shard.count) === shard.index;
}

/**
 * The part of the desired state this shard plans. Globs are expanded first (each shard lists the
 * organizations; that is one page per hundred repositories), then every repository and section entry
 * outside the shard is dropped before anything of it is read. A kind read in every shard (a running
 * migration holds back changes to the repositories it locks, whichever shard plans them) is kept,
 * and `shardPlan` keeps its changes in their own shard only.
 */
export async function shardState(
  state: DesiredState,
  readers: ReadonlyMap<string, ResourceReader>,
  shard: Shard,
): Promise<DesiredState> {
  const [repositories, projects] = await Promise.all(
    (["repository", "project"] as const).map((scope) =>
      shardEntries(scope, scopeState(state, scope).entries, readers, shard),
    ),
  );
  return {
    ...state,
    repositories: repositories!,
    projects: projects!,
    sections: state.sections.filter((entry) => {
      const section = sectionNamed(entry.section);
      if (section === undefined || section.part.everyShard) return true;
      return owns(shard, entry.target, section.part.spec.scope(entry.value));
    }),
  };
}

/** One scope's entries this shard plans: see `shardState`. */
async function shardEntries(
  scope: SelectingScope,
  entries: readonly ScopedEntry[],
  readers: ReadonlyMap<string, ResourceReader>,
  shard: Shard,
): Promise<ScopedEntry[]> {
  const globs = entries.filter((entry) => entry.selector.kind === "glob");
  const expansion = await expandScope(scope, { defaults: [], entries: globs }, readers);
  const failed = new Set(expansion.errors.map(({ entry }) => entry));
  const kept: ScopedEntry[] = [];
  // Each glob becomes one named entry per repository of this shard that it matched, in file order
  // and ahead of the named entries, so the planner layers them exactly as it layers the globs.
  for (const entry of globs) {
    const selector = entry.selector;
    if (selector.kind !== "glob") continue;
    if (failed.has(entry)) {
      // The planner lists it again and reports the failure, once, in the shard the glob falls in.
      if (owns(shard, entry.target, `${selector.owner}/${selector.pattern}`)) kept.push(entry);
      continue;
    }
    for (const repo of expansion.repos) {
      if (repo.target !== entry.target) continue;
      if (!repo.entries.includes(entry)) continue;
      if (!owns(shard, repo.target, selectedName(repo.owner, repo.name))) continue;
      kept.push({ ...entry, selector: { kind: "name", owner: repo.owner, repo: repo.name } });
    }
  }
  for (const entry of entries) {
    const selector = entry.selector;
    if (selector.kind !== "name") continue;
    if (owns(shard, entry.target, selectedName(selector.owner, selector.repo))) kept.push(entry);
  }
  return kept;
}

/**
 * The shard's plan of a sharded state: what every shard reads is reported by its own shard only.
 * The plan records which shard it is, for `plan --merge`.
 */
export function shardPlan(plan: Plan, shard: Shard): Plan {
  const changes = plan.changes.filter(
    (change) =>
      kindNamed(change.kind)?.section?.everyShard !== true ||
      owns(shard, change.target, change.scope),
  );
  return { ...makePlan(changes), shard: { index: shard.index, count: shard.count } };
}
