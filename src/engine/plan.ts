import type { DesiredState } from "../config/model.js";
import { type Change, makePlan, newChange, orderChanges, type Plan } from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";
import {
  type Hold,
  KIND_NAMES,
  type PlanOptions,
  REPOSITORY_KINDS,
  sectionKind,
} from "../resources/index.js";
import { expandRepositories } from "./expand.js";

export interface PlanInput {
  state: DesiredState;
  /** One reader per target name. */
  readers: ReadonlyMap<string, ResourceReader>;
  /** Wall-clock time in ms, for audits of ages. */
  now: number;
  /** Send managed webhook secrets and authorization headers again (they cannot be compared). */
  rotateSecrets?: boolean;
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

/** Runs `tasks` with at most `width` unfinished at a time; results keep the tasks' order. */
async function runWindowed<T>(tasks: ReadonlyArray<() => Promise<T>>, width: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < tasks.length) {
      const index = next++;
      try {
        results[index] = await tasks[index]!();
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, lane));
  return results;
}

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
}: PlanInput): Promise<Plan> {
  const options: PlanOptions = { now, rotateSecrets };
  const expansion = await expandRepositories(state, readers);
  const work: Array<() => Promise<Planned>> = [];
  for (const { entry, error } of expansion.errors) {
    const selector = entry.selector;
    const scope = `${selector.owner}/${selector.kind === "glob" ? selector.pattern : selector.repo}`;
    // What the glob would have planned, kind by kind, could not be planned.
    const changes = REPOSITORY_KINDS.filter(
      (kind) => entry.settings[kind.repository.setting.key] !== undefined,
    ).map((kind) => ({ ...newChange(entry.target, scope, kind.name, "*"), error }));
    work.push(() => Promise.resolve({ changes }));
  }
  for (const repo of expansion.repos) {
    const reader = readerFor(readers, repo.target);
    const ref = { owner: repo.owner, name: repo.name };
    for (const kind of REPOSITORY_KINDS) {
      const value = repo.settings[kind.repository.setting.key];
      if (value === undefined) continue;
      work.push(async () => ({
        changes: await kind.repository.plan({ reader, repo: ref, value, options }),
      }));
    }
  }
  for (const entry of state.sections) {
    const kind = sectionKind(entry.section);
    if (kind === undefined) throw new Error(`no kind plans the section ${entry.section}`);
    const reader = readerFor(readers, entry.target);
    const scope = kind.section.spec.scope(entry.value);
    work.push(() => kind.section.plan({ reader, entry: entry.value, scope, options }));
  }
  const planned = await runWindowed(work, PLANNING_WINDOW);
  const changes = planned.flatMap((result) => result.changes);
  holdBack(
    changes,
    planned.flatMap((result) => result.holds ?? []),
  );
  return makePlan(orderChanges(changes, KIND_NAMES));
}

/** Marks the changes of held scopes (e.g. repositories a running migration locks) as held. */
function holdBack(changes: Change[], holds: readonly Hold[]): void {
  if (holds.length === 0) return;
  const held = new Map(holds.map((hold) => [hold.scope.toLowerCase(), hold.reason]));
  for (const change of changes) {
    const reason = held.get(change.scope.toLowerCase());
    if (reason && change.requests.length > 0) change.held = `${change.scope} is ${reason}`;
  }
}
