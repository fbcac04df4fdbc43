import { selectedName } from "../config/glob.js";
import {
  addressOf,
  awaitingCreation,
  type Change,
  newChange,
  unlistedChange,
} from "../core/plan.js";
import type { RepoRef, ResourceReader } from "../resources/context.js";
import {
  LIFECYCLE_KINDS,
  type Location,
  type PlanOptions,
  SCOPED_KINDS,
} from "../resources/index.js";
import { withArchivedPolicy } from "./archived.js";
import type { ScopedDesired } from "./expand.js";

/**
 * Plans every kind configured for one repository (or project) where it actually is. One a named
 * entry selects is located first by its scope's lifecycle kind (found under its name, under a
 * previous name, absent, or the read's error); one a glob's listing found is where the listing
 * says. Then:
 *
 * - found under a previous name: every kind reads and writes it there, and its changes are
 *   addressed by the name configured (the rename itself comes after them);
 * - absent and created by this plan: the other kinds wait for it (a report each: plan again once
 *   it exists);
 * - not located (the read failed): every kind configured is one change with the error, standing
 *   for whatever it would have planned;
 * - archived and staying so: `archived_repositories` decides (archived.ts).
 */
export async function planRepository(
  repo: ScopedDesired,
  reader: ResourceReader,
  options: PlanOptions,
): Promise<Change[]> {
  const wanted: RepoRef = { owner: repo.owner, name: repo.name };
  const scope = selectedName(repo.owner, repo.name);
  const configured = SCOPED_KINDS[repo.scope].filter(
    (kind) => repo.settings[kind.part.setting.key] !== undefined,
  );
  const lifecycleKind = LIFECYCLE_KINDS[repo.scope];
  const lifecycleValue =
    lifecycleKind === undefined ? undefined : repo.settings[lifecycleKind.part.setting.key];
  const location = await locate(repo, wanted, reader, lifecycleValue);
  if (location.kind === "error") {
    return configured.map((kind) =>
      unlistedChange(reader.target, scope, kind.name, location.error),
    );
  }
  const at = location.kind === "found" ? location.at : wanted;
  const planOne = async (kind: (typeof configured)[number]) => {
    const input = { at, value: repo.settings[kind.part.setting.key], options, location };
    // Only a kind that may read a partial answer plans through a reader of its own: the others
    // share the target's, and with it what is read once per plan (a login, a team).
    if (kind.part.graphql?.partial !== true) return kind.part.plan({ ...input, reader });
    const reads = reader.onePlan();
    const changes = await kind.part.plan({ ...input, reader: reads.reader });
    if (!reads.partial() || changes.every(unchanged)) return changes;
    // A partial answer (a bulk read's, ../resources/graphql-read.ts) shows what is compared, not
    // what a write names: the kind plans its changes again from REST's answer.
    return kind.part.plan({ ...input, reader: reads.exact });
  };
  const lifecycle = configured.find((kind) => kind.name === lifecycleKind?.name);
  const others = configured.filter((kind) => kind !== lifecycle);
  let changes: Change[];
  if (location.kind === "absent" && lifecycle !== undefined) {
    // What the other kinds send with the creation itself (custom properties a create needs).
    const given = others.flatMap((kind) => {
      const fields = kind.part.createFields?.(repo.settings[kind.part.setting.key], at);
      return fields === undefined ? [] : [{ kind: kind.name, fields }];
    });
    const creation = Object.assign({}, ...given.map((entry) => entry.fields)) as Record<
      string,
      unknown
    >;
    const own = await lifecycle.part.plan({
      reader,
      at,
      value: repo.settings[lifecycle.part.setting.key],
      options,
      location,
      ...(given.length > 0 ? { creation } : {}),
    });
    const created = own.some((change) => change.step === "create" && change.error === undefined);
    const sentWith = new Set(given.map((entry) => entry.kind));
    changes = created
      ? [
          ...own,
          ...others.map((kind) =>
            sentWith.has(kind.name)
              ? sentWithCreation(reader.target, scope, kind.name)
              : awaitingCreation(reader.target, scope, kind.name, "settings.create"),
          ),
        ]
      : [...own, ...(await Promise.all(others.map(planOne))).flat()];
  } else {
    changes = (await Promise.all(configured.map(planOne))).flat();
  }
  const moved = at.owner !== wanted.owner || at.name !== wanted.name;
  const scoped = moved ? changes.map((change) => rescoped(change, scope)) : changes;
  if (lifecycleKind === undefined) return scoped;
  const part = lifecycleKind.part.lifecycle;
  return withArchivedPolicy(scoped, {
    location,
    policy: part.archivedPolicy(lifecycleValue).policy,
    scope,
    around: (count) => part.aroundArchived({ target: reader.target, scope, at, others: count }),
  });
}

/** A change that writes nothing and has no error: what a partial answer may plan. */
function unchanged(change: Change): boolean {
  return change.action === "no-op" && change.error === undefined && change.requests.length === 0;
}

/**
 * The REST reads locating a repository (or project) costs beyond its kinds' own: one for one a named
 * entry selects, unless its scope's lifecycle kind is configured for it (its read of it is the same
 * request).
 */
export function locatingReads(repo: ScopedDesired): number {
  const lifecycle = LIFECYCLE_KINDS[repo.scope];
  if (lifecycle === undefined) return 0;
  if (!repo.entries.some((entry) => entry.selector.kind === "name")) return 0;
  return repo.settings[lifecycle.part.setting.key] === undefined ? 1 : 0;
}

/**
 * Where a repository is. One only a glob selects is where the glob's listing found it; one a named
 * entry selects is located by the lifecycle kind, told what a listing found of it, if one did.
 */
function locate(
  repo: ScopedDesired,
  wanted: RepoRef,
  reader: ResourceReader,
  value: unknown,
): Promise<Location> {
  const named = repo.entries.some((entry) => entry.selector.kind === "name");
  const found: Location = {
    kind: "found",
    at: wanted,
    wanted,
    archived: repo.archived === true,
    // What the listing answered stands for the read of the place (bulk reads only: plan.ts).
    ...(repo.listed === undefined ? {} : { answer: repo.listed }),
  };
  const lifecycle = LIFECYCLE_KINDS[repo.scope];
  if (lifecycle === undefined || !named) return Promise.resolve(found);
  const listed = repo.archived === undefined ? {} : { listed: { archived: repo.archived } };
  return lifecycle.part.lifecycle.locate({ reader, at: wanted, value, ...listed });
}

/** A change planned where the repository is now, addressed by the name the configuration gives it. */
function rescoped(change: Change, scope: string): Change {
  const moved: Change = {
    ...change,
    scope,
    address: addressOf(change.target, scope, change.kind, change.name),
  };
  if (change.removal !== undefined) {
    const collection = addressOf(change.target, scope, change.kind, "").slice(0, -1);
    moved.removal = { ...change.removal, collection };
  }
  return moved;
}

/**
 * What a kind whose value goes in the create request (`createFields`) plans for a repository this
 * plan creates: that it is sent with the creation.
 */
function sentWithCreation(target: string, scope: string, kind: string): Change {
  return {
    ...newChange(target, scope, kind, "*"),
    action: "report",
    findings: [
      `sent with the creation of ${scope} (its create request carries it); the plan that verifies the apply compares it`,
    ],
  };
}
