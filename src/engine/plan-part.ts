import type { DesiredState } from "../config/model.js";
import { type ChangesByPlace, type Plan, type Rotation, withRotation } from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";
import { DEFAULT_READS, type ReadsMode } from "./bulk/reads.js";
import { buildPlan } from "./plan.js";
import { measureReads } from "./read-budget.js";
import { capRemovals, removalLimitOf } from "./removal-caps.js";
import { type Shard, shardPlan, shardState } from "./shard.js";
import type { TargetFilter } from "./targets.js";

/** The limit a run raised with its flags, recorded in its plan. */
export type RaisedLimit = NonNullable<Plan["removal_limit"]>;

/**
 * The plan with the removal limit applied: the default, then the configuration's, then what the
 * run raised (which the plan records for `apply PLAN.json`).
 */
export function withRemovalLimit(plan: Plan, state: DesiredState, raised?: RaisedLimit): Plan {
  const limited = capRemovals(plan, removalLimitOf(state.removalLimit, raised));
  return raised === undefined ? limited : { ...limited, removal_limit: raised };
}

/**
 * The plan of the whole desired state, or of one shard of it, with what reading it cost (its
 * budget line).
 */
export async function planPart(
  state: DesiredState,
  readers: ReadonlyMap<string, ResourceReader>,
  shard: Shard | undefined,
  {
    rotateSecrets = false,
    rotateSecretNames = [],
    targets,
    deleted,
    reads = DEFAULT_READS,
    removalLimit,
  }: Rotation & {
    targets?: TargetFilter;
    deleted?: ChangesByPlace;
    reads?: ReadsMode;
    /** The removal limit this run raised (`--removal-limit`, `--delete-limit`). */
    removalLimit?: RaisedLimit;
  } = {},
): Promise<Plan> {
  const now = Date.now();
  const options = {
    now,
    rotateSecrets,
    rotateSecretNames,
    reads,
    ...(targets ? { targets } : {}),
    ...(deleted ? { deleted } : {}),
  };
  const withOptions = (planned: Plan): Plan =>
    withRotation(withRemovalLimit(planned, state, removalLimit), options);
  const { result, budget } = await measureReads(readers, async () => {
    if (shard === undefined) return withOptions(await buildPlan({ state, readers, ...options }));
    const part = await shardState(state, readers, shard);
    const plan = shardPlan(await buildPlan({ state: part, readers, ...options }), shard);
    return withOptions(targets ? { ...plan, targets: [...targets.patterns] } : plan);
  });
  return { ...result, budget };
}
