import { canonicalName } from "./actions-names.js";
import type { Mode, Written } from "./collection.js";
import {
  changeError,
  readFailure,
  type ReadResult,
  type ResourceReader,
  type Shape,
} from "./context.js";
import type { ChangeError } from "../core/plan.js";
import { listedNames, nameSet, repositoryIds } from "./repository-ids.js";

/**
 * The collections of GitHub Actions variables and secrets (planned by ./collection.ts): listed as
 * `{total_count, <key>: […]}` at a path, members by GitHub's upper-cased name, each at
 * `<path>/<NAME>`; a repository's own, its environments' and an organization's are defined and
 * exported alike.
 */

/** A listing by canonical name (`itemsUnder`: "variables", "secrets"). */
export async function listByName<L extends { name: string }>(
  reader: ResourceReader,
  path: string,
  item: Shape<L>,
  itemsUnder: string,
  query?: Record<string, number>,
): Promise<ReadResult<ReadonlyMap<string, L>>> {
  const listed = await reader.list(path, query, item, { itemsUnder });
  if (listed.kind !== "found") return listed;
  return {
    kind: "found",
    data: new Map(listed.data.map((member) => [canonicalName(member.name), member])),
  };
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
  inEnvironment: (environment: E) => Omit<Defined, "prefix">,
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
