import { addBudgets } from "../core/budget.js";
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
  const plans = sources.map((source) => ({ source, plan: readPlan(source) }));
  checkShardSet(plans);
  const seen = new Map<string, string>();
  const changes: Change[] = [];
  for (const { source, plan } of plans) {
    for (const change of plan.changes) {
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
  const budget = addBudgets(plans.flatMap(({ plan }) => (plan.budget ? [plan.budget] : [])));
  return { ...makePlan(orderChanges(changes, KIND_NAMES)), ...(budget ? { budget } : {}) };
}

/**
 * Only a whole set merges into the whole plan: every file a shard plan of one run (`--shard K/N`,
 * one N), each shard once. A missing shard would make the merged plan look complete without part of
 * the desired state; a repeated one, an older run of a shard beside a newer one.
 */
function checkShardSet(plans: ReadonlyArray<{ source: PlanSource; plan: Plan }>): void {
  const byIndex = new Map<number, string>();
  let count: number | undefined;
  /** The first file and the shard it holds, which every other file must be a sibling of. */
  let first = "";
  for (const { source, plan } of plans) {
    const shard = plan.shard;
    if (shard === undefined) {
      throw new PlanFileError(
        `${source.source} is not a shard plan (it records no --shard K/N); merge the plans of the shards of one run`,
      );
    }
    if (count !== undefined && shard.count !== count) {
      throw new PlanFileError(
        `${source.source} is shard ${shard.index}/${shard.count} but ${first}; merge the plans of one sharded run`,
      );
    }
    count ??= shard.count;
    if (first === "") first = `${source.source} is shard ${shard.index}/${shard.count}`;
    const other = byIndex.get(shard.index);
    if (other !== undefined) {
      throw new PlanFileError(
        `shard ${shard.index}/${shard.count} is in both ${other} and ${source.source}; merge each shard once`,
      );
    }
    byIndex.set(shard.index, source.source);
  }
  const missing = Array.from({ length: count ?? 0 }, (_, i) => i + 1).filter(
    (index) => !byIndex.has(index),
  );
  if (missing.length > 0) {
    throw new PlanFileError(
      `shard${missing.length === 1 ? "" : "s"} ${missing.map((index) => `${index}/${count}`).join(", ")} ` +
        `${missing.length === 1 ? "is" : "are"} missing: a merged plan needs the plans of all ${count} shards`,
    );
  }
}
