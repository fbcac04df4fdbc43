import type { DesiredState } from "../config/model.js";
import { type ChangesByPlace, type Plan, type Rotation, withRotation } from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";
import { buildPlan } from "./plan.js";
import { type Shard, shardPlan, shardState } from "./shard.js";
import type { TargetFilter } from "./targets.js";

/** The plan of the whole desired state, or of one shard of it. */
export async function planPart(
  state: DesiredState,
  readers: ReadonlyMap<string, ResourceReader>,
  shard: Shard | undefined,
  {
    rotateSecrets = false,
    rotateSecretNames = [],
    targets,
    deleted,
  }: Rotation & { targets?: TargetFilter; deleted?: ChangesByPlace } = {},
): Promise<Plan> {
  const now = Date.now();
  const options = {
    now,
    rotateSecrets,
    rotateSecretNames,
    ...(targets ? { targets } : {}),
    ...(deleted ? { deleted } : {}),
  };
  const withOptions = (plan: Plan): Plan => withRotation(plan, options);
  if (shard === undefined) return withOptions(await buildPlan({ state, readers, ...options }));
  const part = await shardState(state, readers, shard);
  const plan = shardPlan(await buildPlan({ state: part, readers, ...options }), shard);
  return withOptions(targets ? { ...plan, targets: [...targets.patterns] } : plan);
}
