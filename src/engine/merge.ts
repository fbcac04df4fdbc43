import { type Change, makePlan, orderChanges, type Plan } from "../core/plan.js";
import { PlanFileError, readPlanFile } from "../core/plan-file.js";
import { KIND_NAMES } from "../resources/index.js";

/**
 * Combines the plans of shards (saved with `--out`) into one plan: one report and one pull-request
 * comment for a matrix of jobs. Each file is read by the plan-file codec, which checks it whole.
 */

export { PlanFileError };

export interface PlanSource {
  /** Where the plan came from, as the user named it. */
  source: string;
  text: string;
}

/** Reads a plan file with the kinds this forgeplan knows. */
export function readPlan({ source, text }: PlanSource): Plan {
  return readPlanFile(text, source, KIND_NAMES);
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
    for (const change of readPlan(source).changes) {
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
  return makePlan(orderChanges(changes, KIND_NAMES));
}
