import {
  ACTIONS,
  type Change,
  makePlan,
  orderChanges,
  type Plan,
  RESOURCE_KINDS,
} from "../core/plan.js";

/**
 * Combines the plans of shards (saved with `--out`) into one plan: one report and one pull-request
 * comment for a matrix of jobs. The summary is recomputed from the changes, never added up.
 */

export class PlanFileError extends Error {
  override name = "PlanFileError";
}

export interface PlanSource {
  /** Where the plan came from, as the user named it. */
  source: string;
  text: string;
}

const kinds = new Set<string>(RESOURCE_KINDS);
const actions = new Set<string>(ACTIONS);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The fields every renderer and the merge rely on; the rest of a change is carried as it is. */
function checkChange(value: unknown, where: string): Change {
  if (!isRecord(value)) throw new PlanFileError(`${where}: expected an object`);
  for (const key of ["address", "target", "scope", "name"]) {
    if (typeof value[key] !== "string")
      throw new PlanFileError(`${where}.${key}: expected a string`);
  }
  if (!kinds.has(String(value.kind))) {
    throw new PlanFileError(`${where}.kind: unknown kind '${String(value.kind)}'`);
  }
  if (!actions.has(String(value.action))) {
    throw new PlanFileError(`${where}.action: unknown action '${String(value.action)}'`);
  }
  if (!Array.isArray(value.diff) || !Array.isArray(value.requests)) {
    throw new PlanFileError(`${where}: expected 'diff' and 'requests' lists`);
  }
  return value as unknown as Change;
}

/** Reads a plan saved with `--out`; throws PlanFileError naming the file and what is wrong. */
export function parsePlan({ source, text }: PlanSource): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PlanFileError(`${source}: not JSON (${reason})`);
  }
  if (!isRecord(value) || value.format_version !== 1 || !Array.isArray(value.changes)) {
    throw new PlanFileError(
      `${source}: not a forgeplan plan (expected format_version 1 and a changes list)`,
    );
  }
  const changes = value.changes.map((change, index) =>
    checkChange(change, `${source}: changes[${index}]`),
  );
  return makePlan(changes);
}

/**
 * One plan from shard plans: every change once (an address in two plans means they were not shards
 * of one run, which is refused), ordered by kind as the planner orders them, then shard by shard.
 */
export function mergePlans(sources: readonly PlanSource[]): Plan {
  if (sources.length === 0) throw new PlanFileError("no plans to merge");
  const seen = new Map<string, string>();
  const changes: Change[] = [];
  for (const source of sources) {
    for (const change of parsePlan(source).changes) {
      const first = seen.get(change.address);
      if (first !== undefined) {
        throw new PlanFileError(
          `${change.address} is in both ${first} and ${source.source}; merge the plans of one sharded run (--shard K/N)`,
        );
      }
      seen.set(change.address, source.source);
      changes.push(change);
    }
  }
  return makePlan(orderChanges(changes));
}
