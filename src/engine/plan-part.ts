import type { DesiredState } from "../config/model.js";
import type { Plan } from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";
import { buildPlan } from "./plan.js";
import { type Shard, shardPlan, shardState } from "./shard.js";

/** The plan of the whole desired state, or of one shard of it. */
export async function planPart(
  state: DesiredState,
  readers: ReadonlyMap<string, ResourceReader>,
  shard: Shard | undefined,
  { rotateSecrets = false }: { rotateSecrets?: boolean } = {},
): Promise<Plan> {
  const now = Date.now();
  const withOptions = (plan: Plan): Plan =>
    rotateSecrets ? { ...plan, rotate_secrets: true } : plan;
  if (shard === undefined)
    return withOptions(await buildPlan({ state, readers, now, rotateSecrets }));
  const part = await shardState(state, readers, shard);
  return withOptions(
    shardPlan(await buildPlan({ state: part, readers, now, rotateSecrets }), shard),
  );
}
