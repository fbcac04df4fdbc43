import { canonicalName } from "./actions-names.js";
import type { Mode, Written } from "./collection.js";
import {
  changeError,
  readFailure,
  type ReadResult,
  type ResourceReader,
  type Shape,
} from "./context.js";
import { listedNames } from "./repository-ids.js";

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
