import type { Change, ChangeError } from "../core/plan.js";
import { canonicalName } from "./actions-names.js";
import { type MemberChange, type Mode, planCollection } from "./collection.js";
import { changeError, readFailure, type ReadResult, type ResourceReader } from "./context.js";
import { fingerprint } from "./fingerprint.js";
import type { PlanOptions } from "./kind.js";
import { listedNames, nameSet, repositoryIds } from "./repository-ids.js";

/**
 * The collections of GitHub Actions variables and secrets (planned by ./collection.ts): listed as
 * `{total_count, <key>: […]}` at a path, members by GitHub's upper-cased name, each at
 * `<path>/<NAME>`; a repository's own, its environments' and an organization's are planned,
 * defined and exported alike.
 */

/** One collection written: where it is listed and how its members are addressed. */
export interface Written<D> {
  path: string;
  /** Prefixed to members' names in addresses: "", "dependabot/", "environments/production/". */
  prefix: string;
  what: string;
  mode: Mode;
  /** Members as written (names in any case); undefined: the collection is not managed. */
  items: Record<string, D> | undefined;
  absentNote?: string;
}

/** How a kind reads, plans and shows the members of any of its collections at `path`. */
export interface Members<D, L extends { name: string }> {
  list(path: string): Promise<ReadResult<readonly L[]>>;
  plan(
    path: string,
    name: string,
    desired: D,
    live: L | undefined,
  ): MemberChange | Promise<MemberChange>;
  /** What the plan shows of a live member it deletes. */
  shown(live: L): Record<string, unknown>;
}

/** Where a kind plans its collections: its reader, the scope they are addressed under, the options. */
export interface Place {
  reader: ResourceReader;
  scope: string;
  kind: string;
  options: PlanOptions;
}

/** The delete of a live member authoritative mode does not keep, showing what it had. */
function deletion(path: string, name: string, shown: Record<string, unknown>): MemberChange {
  return {
    action: "delete",
    diff: Object.entries(shown).map(([key, before]) => ({
      path: key,
      before,
      ...(key === "value" && before === "set" ? { sensitive: true } : {}),
    })),
    requests: [{ method: "DELETE", path: `${path}/${name}` }],
    live_fingerprint: fingerprint(shown),
    notes: [`${name} is not in the desired state (mode: authoritative)`],
  };
}

/** Plans the collections written at one place (one not written is not managed). */
export async function planNamed<D, L extends { name: string }>(
  { reader, scope, kind, options }: Place,
  members: Members<D, L>,
  collections: ReadonlyArray<Written<D>>,
): Promise<Change[]> {
  const deleted = options.deleted?.at(reader.target, scope, kind) ?? [];
  const planned = await Promise.all(
    collections.flatMap(({ items, path, prefix, what, mode, absentNote }) =>
      items === undefined
        ? []
        : [
            planCollection<D, L>({
              reader,
              scope,
              kind,
              prefix,
              what,
              mode,
              members: Object.entries(items).map(([name, desired]) => ({
                name: canonicalName(name),
                desired,
              })),
              path,
              list: () => members.list(path),
              ...(absentNote === undefined ? {} : { absentNote }),
              nameOf: (live) => live.name,
              canonical: canonicalName,
              plan: ({ name, desired }, live) => members.plan(path, name, desired, live),
              remove: (live) => {
                const name = canonicalName(live.name);
                return { name, change: deletion(path, name, members.shown(live)) };
              },
              // Only this collection's own: an environment's collection is another one.
              deleted: deleted.filter((change) => {
                const member = change.name.startsWith(prefix)
                  ? change.name.slice(prefix.length)
                  : "/";
                return !member.includes("/");
              }),
            }),
          ],
    ),
  );
  return planned.flat();
}

/** The collections of a repository's deployment environments (`pick`: their members written). */
export function environmentCollections<D, E extends { mode?: Mode }>(
  base: string,
  scope: string,
  area: "variables" | "secrets",
  environments: Record<string, E> | undefined,
  mode: Mode,
  pick: (written: E) => Record<string, D> | undefined,
): Array<Written<D>> {
  return Object.entries(environments ?? {}).map(([environment, written]) => ({
    path: `${base}/environments/${encodeURIComponent(environment)}/${area}`,
    prefix: `environments/${environment}/`,
    what: `the ${area} of environment ${environment} of ${scope}`,
    mode: written.mode ?? mode,
    items: pick(written),
    absentNote: `environment ${environment} was not found: it must exist when this is applied (the environments setting creates it first)`,
  }));
}

/** Members written under one key of a value (`items`, `actions` …), addressed with a prefix. */
interface Defined {
  key: string;
  prefix: string;
  items: Record<string, unknown> | undefined;
}

/**
 * What a value defines: each member by its canonical name where it is written; a collection under
 * `mode: authoritative` is one resource, since what it deletes depends on all it lists.
 */
export function definedMembers<E extends { mode?: Mode }>(
  kind: string,
  written: { mode?: Mode; environments?: Record<string, E> },
  own: readonly Defined[],
  /** What an environment's value holds (a repository's; an organization has no environments). */
  inEnvironment?: (environment: E) => Omit<Defined, "prefix">,
) {
  const members = (at: string[], { key, prefix, items }: Defined) =>
    Object.keys(items ?? {}).map((name) => ({
      id: `${prefix}${canonicalName(name)}`,
      path: [...at, key, name],
      what: `the ${kind} ${prefix}${canonicalName(name)}`,
    }));
  if (written.mode === "authoritative") {
    return [{ id: `${kind}s`, path: [], what: `the ${kind}s (mode: authoritative)` }];
  }
  return [
    ...own.flatMap((defined) => members([], defined)),
    ...Object.entries(written.environments ?? {}).flatMap(([environment, env]) =>
      env.mode === "authoritative"
        ? [
            {
              id: `environments/${environment}`,
              path: ["environments", environment],
              what: `the ${kind}s of environment ${environment} (mode: authoritative)`,
            },
          ]
        : inEnvironment === undefined
          ? []
          : members(["environments", environment], {
              ...inEnvironment(env),
              prefix: `environments/${environment}/`,
            }),
    ),
  ];
}

/** How an organization's member is shared, as export writes it: visibility and selected names. */
export async function sharingOf<V extends string>(
  reader: ResourceReader,
  path: string,
  kind: string,
  name: string,
  visibility: V | undefined,
): Promise<{ visibility: V; selected_repositories?: string[] }> {
  if (visibility === undefined) {
    throw readFailure(changeError(`${kind} ${name} has no visibility`, "GET", path, 200));
  }
  if (visibility !== "selected") return { visibility };
  const listed = await listedNames(reader, `${path}/${name}/repositories`);
  if ("error" in listed) throw readFailure(listed.error);
  return { visibility, selected_repositories: listed.names };
}

/** How an organization's variable or secret is shared, as compared. */
export interface Sharing {
  visibility: string;
  selected_repositories?: string[];
}

/**
 * The sharing written and the live one (its repositories read only when both select, as names) of
 * an organization's member, and the ids of the repositories to send (`selected_repository_ids`).
 */
export async function sharingPlan(
  reader: ResourceReader,
  org: string,
  memberPath: string,
  desired: { visibility: string; selected_repositories?: string[] | undefined },
  live: { visibility?: string | undefined } | undefined,
): Promise<
  | {
      wanted: Sharing;
      current: Sharing | undefined;
      ids(): Promise<{ ids: number[] } | { error: ChangeError }>;
    }
  | { error: ChangeError }
> {
  const selected = desired.visibility === "selected" ? desired.selected_repositories : undefined;
  const wanted: Sharing = { visibility: desired.visibility };
  if (selected !== undefined) wanted.selected_repositories = nameSet(selected);
  const ids = async () =>
    selected === undefined ? { ids: [] } : repositoryIds(reader, org, selected);
  if (live === undefined) return { wanted, current: undefined, ids };
  const current: Sharing = { visibility: live.visibility ?? "" };
  if (live.visibility === "selected" && selected !== undefined) {
    const listed = await listedNames(reader, `${memberPath}/repositories`);
    if ("error" in listed) return { error: listed.error };
    current.selected_repositories = listed.names;
  }
  return { wanted, current, ids };
}
