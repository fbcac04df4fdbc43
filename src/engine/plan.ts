import { describeSelector } from "../config/glob.js";
import type { SelectingScope } from "../config/spec.js";
import type { DesiredState, ScopedEntry, SectionEntry, SettingsLayer } from "../config/model.js";
import {
  type Change,
  type ChangesByPlace,
  isUnlisted,
  makePlan,
  orderChanges,
  type Plan,
  unlistedChange,
} from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";
import {
  type Hold,
  KIND_NAMES,
  LIFECYCLE_KINDS,
  type PlanOptions,
  SCOPED_KINDS,
  sectionNamed,
} from "../resources/index.js";
import { type BulkPlan, DEFAULT_READS, planReads, type ReadsMode } from "./bulk/reads.js";
import { checkFits, type ReadEstimate } from "./read-budget.js";
import { type Expansion, expandScopes } from "./expand.js";
import { locatingReads, planRepository } from "./lifecycle.js";
import { withOrderNotes } from "./repository-order.js";
import { withGateNotes } from "./gates.js";
import { withNeedsMet } from "./needs.js";
import { runWindowed } from "./windowed.js";
import { positionedInRepository, positionedInSection } from "./written.js";
import { type TargetFilter, targetedRepos } from "./targets.js";

export interface PlanInput {
  state: DesiredState;
  /** One reader per target name. */
  readers: ReadonlyMap<string, ResourceReader>;
  /** Wall-clock time in ms, for audits of ages. */
  now: number;
  /** Send every managed write-only value again (they cannot be compared). */
  rotateSecrets?: boolean;
  /** Send again the write-only values of these names (`--rotate-secret NAME`). */
  rotateSecretNames?: readonly string[];
  /** Plan only what these address patterns reach (`--target`). */
  targets?: TargetFilter;
  /** When the plan verifies an apply: the deletes it carried out (see `PlanOptions.deleted`). */
  deleted?: ChangesByPlace;
  /** How repositories' state is read: REST, in bulk over GraphQL, or (auto) as saves budget. */
  reads?: ReadsMode;
}

function readerFor(readers: ReadonlyMap<string, ResourceReader>, target: string): ResourceReader {
  const reader = readers.get(target);
  if (!reader) throw new Error(`target '${target}' has no connection`);
  return reader;
}

/**
 * How many resources are read at once. The client's concurrency limit decides how many requests are
 * in flight; this only bounds how many are queued behind it. Starting every read at once queued
 * ~5 KB per request (30,000 requests at 10,000 repositories: 150 MB live before the first answer).
 */
const PLANNING_WINDOW = 512;

interface Planned {
  changes: Change[];
  holds?: Hold[];
}

/**
 * Reads live state for everything the desired state names and returns the plan: every kind of the
 * registry plans what it is configured with, per repository or per section entry. Reads are issued
 * a window at a time; the client's concurrency limit and rate pacing decide how fast they go.
 */
export async function buildPlan({
  state,
  readers,
  now,
  rotateSecrets = false,
  rotateSecretNames = [],
  targets,
  deleted,
  reads = DEFAULT_READS,
}: PlanInput): Promise<Plan> {
  const options: PlanOptions = {
    now,
    rotateSecrets,
    rotateSecretNames,
    ...(deleted ? { deleted } : {}),
  };
  if (targets === undefined) {
    const expansion = await expandScopes(state, readers);
    const work = { ...expansion, sections: state.sections, defaults: defaultsOf(state) };
    const planned = await planWork(work, readers, options, reads);
    holdBack(planned.changes, planned.holds);
    return makePlan(annotated(orderChanges(planned.changes, KIND_NAMES)));
  }
  // An owner no target reaches is not even listed.
  const reaches = (entry: ScopedEntry) =>
    targets.reaches(
      `${entry.target}/${entry.selector.owner}${entry.selector.owner === "" ? "" : "/"}`,
    );
  const expansion = await expandScopes(
    {
      ...state,
      repositories: state.repositories.filter(reaches),
      projects: state.projects.filter(reaches),
    },
    readers,
  );
  const sections = state.sections.filter((entry) => {
    const section = sectionNamed(entry.section);
    if (section === undefined) return true;
    // What a section entry holds back (a running migration) matters whatever is targeted.
    if (section.part.everyShard) return true;
    const scope = section.part.spec.scope(entry.value);
    return section.kinds.some((kind) => targets.reaches(`${entry.target}/${scope}/${kind}/`));
  });
  const planned = await planWork(
    {
      ...expansion,
      repos: targetedRepos(expansion, targets),
      sections,
      defaults: defaultsOf(state),
    },
    readers,
    options,
    reads,
  );
  holdBack(planned.changes, planned.holds);
  const changes = planned.changes.filter(
    (change) => targets.matches(change.address) || unlistedFor(change, targets),
  );
  return {
    ...makePlan(annotated(orderChanges(changes, KIND_NAMES))),
    targets: [...targets.patterns],
  };
}

/**
 * What the plan says of each change beyond its kind's words: its place in apply, its flag, and
 * whether what it needs the plan to create is created.
 */
export function annotated(changes: readonly Change[]): Change[] {
  return withGateNotes(withOrderNotes(withNeedsMet(changes)));
}

/**
 * A listing that failed (a glob's repositories, a repository's hooks, a user's gists) is planned as
 * one `*` change with the error, standing for whatever it would have found. Only what a target
 * reaches is read (a glob is listed when a target reaches its owner), so such a change stays in the
 * plan even when no target matches its address as text (`acme/*` is not `acme/api`): a targeted plan
 * that could not list must not read as "No changes". The owner is checked again for the sections
 * every shard reads whatever is targeted.
 */
function unlistedFor(change: Change, targets: TargetFilter): boolean {
  if (!isUnlisted(change)) return false;
  const owner = change.scope.split("/")[0];
  return targets.reaches(`${change.target}/${owner}/`);
}

/**
 * What to read and plan: repositories with the settings to plan for each (a part of what their
 * entries ask for reads only that part), the globs that could not be expanded, and section entries.
 */
export interface PlanWork extends Expansion {
  sections: readonly SectionEntry[];
  /**
   * The defaults under every repository's (and every project's) entries: where an error's written
   * value may be.
   */
  defaults?: ScopeDefaults;
}

/** Each selecting scope's defaults. */
export type ScopeDefaults = Readonly<Record<SelectingScope, readonly SettingsLayer[]>>;

/** The defaults of each selecting scope of a desired state. */
export function defaultsOf(state: DesiredState): ScopeDefaults {
  return { repository: state.defaults, project: state.projectDefaults };
}

/**
 * Plans exactly the work given; holds are returned, not applied, so a caller can combine plans.
 * Repositories read in bulk (`reads`, ./bulk/reads.ts) plan once their batch has been read; the
 * order of the changes is the same either way.
 */
export async function planWork(
  work: PlanWork,
  plainReaders: ReadonlyMap<string, ResourceReader>,
  options: PlanOptions,
  reads: ReadsMode = DEFAULT_READS,
): Promise<{ changes: Change[]; holds: Hold[] }> {
  // One plan task per repository (./lifecycle.ts plans all its kinds).
  const bulk = planReads(reads, work.repos, plainReaders, () => 1);
  // A plan that verifies an apply is never refused: the writes it checks were sent.
  if (options.deleted === undefined) {
    checkFits(estimateReads(work, bulk), plainReaders, Date.now());
  }
  const readers = bulk.readers;
  const tasks: Array<() => Promise<Planned>> = [];
  // Several entries with one selector fail together: each address is reported once.
  const failed = new Set<string>();
  for (const { entry, error } of work.errors) {
    const scope = describeSelector(entry.selector);
    // What the glob would have planned, kind by kind, could not be planned.
    const changes = SCOPED_KINDS[entry.scope]
      .filter((kind) => entry.settings[kind.part.setting.key] !== undefined)
      .map((kind) => unlistedChange(entry.target, scope, kind.name, error))
      .filter((change) => !failed.has(change.address) && failed.add(change.address));
    tasks.push(() => Promise.resolve({ changes }));
  }
  for (const [index, repo] of work.repos.entries()) {
    const reader = readerFor(readers, repo.target);
    const note = propertyMatch(repo.entries);
    const batch = bulk.batchOf(index);
    tasks.push(async () => {
      await batch?.ready();
      try {
        const located = bulk.locatedByListing(index) ? repo : { ...repo, listed: undefined };
        const planned = await planRepository(located, reader, options);
        const defaults = work.defaults?.[repo.scope] ?? [];
        const changes = positionedInRepository(planned, defaults, repo.entries, repo.scope);
        return { changes: note === undefined ? changes : changes.map((c) => withNote(c, note)) };
      } finally {
        batch?.done();
      }
    });
  }
  for (const entry of work.sections) {
    const section = sectionNamed(entry.section);
    if (section === undefined) throw new Error(`no kind plans the section ${entry.section}`);
    const reader = readerFor(readers, entry.target);
    const scope = section.part.spec.scope(entry.value);
    tasks.push(async () => {
      const planned = await section.part.plan({ reader, entry: entry.value, scope, options });
      return { ...planned, changes: positionedInSection(planned.changes, entry) };
    });
  }
  const planned = await runWindowed(tasks, PLANNING_WINDOW);
  return {
    changes: planned.flatMap((result) => result.changes),
    holds: planned.flatMap((result) => result.holds ?? []),
  };
}

/** The kinds a repository's (or project's) settings configure, in the registry's order. */
function configured(repo: PlanWork["repos"][number]) {
  return SCOPED_KINDS[repo.scope].filter(
    (kind) => repo.settings[kind.part.setting.key] !== undefined,
  );
}

/**
 * What the work will read at least, per target: a REST request per section entry, per named
 * repository to locate it, and per kind of a repository read over REST (or as many as the kind
 * says), and the predicted points of the bulk queries.
 */
function estimateReads(work: PlanWork, bulk: BulkPlan): Map<string, ReadEstimate> {
  const estimates = new Map<string, ReadEstimate>();
  const of = (target: string) => {
    let found = estimates.get(target);
    if (found === undefined) {
      found = { rest: 0, graphqlQueries: 0, graphqlPoints: 0 };
      estimates.set(target, found);
    }
    return found;
  };
  for (const [index, repo] of work.repos.entries()) {
    const inBulk = bulk.bulkKinds(index);
    const lifecycle = LIFECYCLE_KINDS[repo.scope];
    // Located in bulk, a repository costs no read of its own (./bulk/reads.ts).
    if (lifecycle === undefined || !inBulk.has(lifecycle.name))
      of(repo.target).rest += locatingReads(repo);
    for (const kind of configured(repo)) {
      if (inBulk.has(kind.name)) continue;
      const value = repo.settings[kind.part.setting.key];
      of(repo.target).rest += kind.part.restReads?.(value) ?? 1;
    }
  }
  for (const entry of work.sections) of(entry.target).rest += 1;
  for (const batch of bulk.batches) {
    const estimate = of(batch.target);
    estimate.graphqlQueries += 1;
    estimate.graphqlPoints += batch.points;
  }
  return estimates;
}

/** Which entries chose a repository by its custom properties, for the reviewer: undefined if none. */
function propertyMatch(entries: readonly ScopedEntry[]): string | undefined {
  const matched = entries.filter(
    (entry) => entry.selector.kind === "glob" && entry.selector.properties !== undefined,
  );
  if (matched.length === 0) return undefined;
  const names = matched.map(
    (entry) => `${describeSelector(entry.selector)} (${entry.origin.file}:${entry.origin.line})`,
  );
  return `selected by ${names.join(" and ")}`;
}

/** Changes that do something name why their repository was chosen; unchanged ones stay quiet. */
function withNote(change: Change, note: string): Change {
  if (change.action === "no-op" || change.error !== undefined) return change;
  return { ...change, notes: [...(change.notes ?? []), note] };
}

/** Marks the changes of held scopes (e.g. repositories a running migration locks) as held. */
export function holdBack(changes: Change[], holds: readonly Hold[]): void {
  if (holds.length === 0) return;
  const held = new Map(holds.map((hold) => [hold.scope.toLowerCase(), hold.reason]));
  for (const change of changes) {
    const reason = held.get(change.scope.toLowerCase());
    if (reason && change.requests.length > 0) change.held = `${change.scope} is ${reason}`;
  }
}
