import type { Change, Plan, RemovalCap, RemovalLimit } from "../core/plan.js";

/**
 * Removal caps, for every kind at once. A delete an authoritative collection plans for a member it
 * does not list carries `removal: {collection, live}` (a repository's hooks, its collaborators, a
 * team's members …). Over the share of a collection's live members the limit allows, every
 * removal of that collection is held — none applied, all shown — until a person raises the limit
 * for a run or in the configuration. On top of that, the whole plan may be limited to a number of
 * deletes. Peribolos is the model: it refuses a run that would remove more than a share of an
 * organization's members or teams ("cannot delete 28 teams … exceeds limit of 0.250",
 * kubernetes/org#2094), after a faulty configuration stripped members and repositories from teams
 * (kubernetes/org#4365).
 */

export const DEFAULT_REMOVAL_LIMIT: RemovalLimit = { share: 25, floor: 2 };

/** The limit of a run: the default, then what the configuration sets, then the run's flags. */
export function removalLimitOf(
  ...layers: ReadonlyArray<Partial<RemovalLimit> | undefined>
): RemovalLimit {
  const limit: RemovalLimit = { ...DEFAULT_REMOVAL_LIMIT };
  for (const layer of layers) {
    if (layer?.share !== undefined) limit.share = layer.share;
    if (layer?.floor !== undefined) limit.floor = layer.floor;
    if (layer?.deletes !== undefined) limit.deletes = layer.deletes;
  }
  return limit;
}

/** How many removals a collection of `live` members allows. */
export function allowedRemovals(live: number, limit: RemovalLimit): number {
  return Math.max(limit.floor, Math.floor((live * limit.share) / 100));
}

function percent(count: number, live: number): number {
  return live === 0 ? 100 : Math.ceil((count * 100) / live);
}

/** The sentence a held delete carries (`held`), which apply reports as its outcome. */
function heldReason(cap: RemovalCap, limit: RemovalLimit): string {
  if (cap.by === "plan") {
    return `the plan deletes ${cap.count}, more than the ${cap.allowed} a plan may delete; raise it with --delete-limit ${cap.count} or removal_limit.deletes`;
  }
  const live = cap.live ?? 0;
  const members = cap.members === undefined ? "" : ` ${cap.members}`;
  return `${cap.count} of ${live}${members} (${percent(cap.count, live)} %) would be removed, over the removal limit of ${limit.share} % (at least ${limit.floor}); raise it with --removal-limit ${percent(cap.count, live)} or removal_limit.share`;
}

function isDelete(change: Change): boolean {
  return change.action === "delete" && change.error === undefined;
}

/**
 * A change that removes members of a collection: a delete an authoritative collection plans, or an
 * update that takes members away with it (an allowed value of a custom property that repositories
 * hold, removed from its definition).
 */
function removes(change: Change): boolean {
  return (
    change.removal !== undefined &&
    change.error === undefined &&
    (change.action === "delete" || change.action === "update")
  );
}

/**
 * The plan with the deletes over the limit held. Counts are of what the plan would remove: a
 * collection's removals are held all together or not at all, so what is applied never depends on
 * which ones came first.
 */
export function capRemovals(plan: Plan, limit: RemovalLimit): Plan {
  const caps = new Map<Change, RemovalCap>();
  const byCollection = new Map<string, Change[]>();
  for (const change of plan.changes) {
    if (!removes(change) || change.removal === undefined) continue;
    const list = byCollection.get(change.removal.collection) ?? [];
    list.push(change);
    byCollection.set(change.removal.collection, list);
  }
  for (const removals of byCollection.values()) {
    const live = Math.max(...removals.map((change) => change.removal?.live ?? 0));
    const allowed = allowedRemovals(live, limit);
    // A change may remove several members at once (`removal.count`).
    const count = removals.reduce((sum, change) => sum + (change.removal?.count ?? 1), 0);
    if (count <= allowed) continue;
    const members = removals[0]?.removal?.members;
    for (const change of removals) {
      caps.set(change, {
        by: "collection",
        count,
        live,
        allowed,
        ...(members === undefined ? {} : { members }),
      });
    }
  }
  if (limit.deletes !== undefined) {
    const deletes = plan.changes.filter(
      (change) => isDelete(change) && change.held === undefined && !caps.has(change),
    );
    if (deletes.length > limit.deletes) {
      for (const change of deletes) {
        caps.set(change, { by: "plan", count: deletes.length, allowed: limit.deletes });
      }
    }
  }
  if (caps.size === 0) return plan;
  return {
    ...plan,
    changes: plan.changes.map((change) => {
      const cap = caps.get(change);
      if (cap === undefined) return change;
      return { ...change, held: change.held ?? heldReason(cap, limit), capped: cap };
    }),
  };
}

/** The deletes of a plan the removal limit holds. */
export function cappedChanges(plan: Plan): Change[] {
  return plan.changes.filter((change) => change.capped !== undefined);
}
