import * as z from "zod";
import type { Change, DiffEntry, PlannedRequest } from "../../core/plan.js";
import { canonicalName } from "../actions-names.js";
import { type Collection, planCollection } from "../collection.js";
import {
  changeError,
  mustFind,
  type ReadResult,
  readFailure,
  repoPath,
  type RepoRef,
  type ResourceReader,
} from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { KindModule, PlanOptions } from "../kind.js";
import { listedNames, nameSet, repositoryIds } from "../repository-ids.js";
import {
  type Mode,
  type OrganizationVariable,
  type OrganizationVariables,
  organizationVariables,
  type RepositoryVariables,
  repositoryVariables,
} from "./settings.js";

/**
 * GitHub Actions variables of repositories, their environments and organizations, by name (GitHub
 * keeps names upper-cased and does not tell case apart, so neither does forgeplan). A variable's
 * value is compared as text; a missing one is created (`POST`), a different one updated (`PATCH`),
 * and under `mode: authoritative` one not written is deleted, marked for the removal caps. An
 * organization variable's visibility and selected repositories (by name) are compared too.
 *
 * Environment-level values are a key of this kind (`variables.environments.<name>`), not of the
 * environments kind: they are read and written at their own endpoints, by their own rules
 * (authoritative deletes, removal caps), and apply after environments (the registry's order), so an
 * environment the same configuration creates exists when its variables are written.
 */

const KIND = "variable";

/** GitHub's variables lists take at most 30 a page (`variables-per-page`). */
const PER_PAGE = 30;

const listedVariable = z.looseObject({
  name: z.string(),
  value: z.string(),
  visibility: z.enum(["all", "private", "selected"]).optional(),
});
type Listed = z.infer<typeof listedVariable>;

async function listVariables(
  reader: ResourceReader,
  path: string,
): Promise<ReadResult<ReadonlyMap<string, Listed>>> {
  const listed = await reader.list(
    path,
    { per_page: PER_PAGE },
    { name: "variables", schema: listedVariable },
    { itemsUnder: "variables" },
  );
  if (listed.kind !== "found") return listed;
  return {
    kind: "found",
    data: new Map(listed.data.map((item) => [canonicalName(item.name), item])),
  };
}

function canonicalItems<T>(items: Record<string, T> | undefined): Map<string, T> {
  return new Map(Object.entries(items ?? {}).map(([name, value]) => [canonicalName(name), value]));
}

/** A repository's or environment's variable: its value only. */
function planValue(path: string, name: string, desired: string, live: Listed | undefined) {
  if (live === undefined) {
    return {
      action: "create" as const,
      diff: [{ path: "value", after: desired }],
      requests: [{ method: "POST" as const, path, body: { name, value: desired } }],
      live_fingerprint: fingerprint(null),
    };
  }
  const planned = { live_fingerprint: fingerprint({ value: live.value }) };
  if (live.value === desired) return planned;
  return {
    ...planned,
    action: "update" as const,
    diff: [{ path: "value", before: live.value, after: desired }],
    requests: [{ method: "PATCH" as const, path: `${path}/${name}`, body: { value: desired } }],
  };
}

interface Place {
  reader: ResourceReader;
  scope: string;
  options: PlanOptions;
}

function valueCollection(
  place: Place,
  path: string,
  prefix: string,
  what: string,
  mode: Mode,
  items: Record<string, string> | undefined,
  absentNote?: string,
): Collection<string, Listed> {
  return {
    target: place.reader.target,
    scope: place.scope,
    kind: KIND,
    prefix,
    what,
    mode,
    desired: canonicalItems(items),
    list: () => listVariables(place.reader, path),
    ...(absentNote ? { absentNote } : {}),
    plan: (name, desired, live) => planValue(path, name, desired, live),
    deleteRequest: (name) => ({ method: "DELETE", path: `${path}/${name}` }),
    shown: (live) => ({ value: live.value }),
    deleted: place.options.deleted?.at(place.reader.target, place.scope, KIND) ?? [],
  };
}

async function planRepository(
  reader: ResourceReader,
  repo: RepoRef,
  value: RepositoryVariables,
  options: PlanOptions,
): Promise<Change[]> {
  const place = { reader, scope: `${repo.owner}/${repo.name}`, options };
  const mode = value.mode ?? "additive";
  const collections: Array<Collection<string, Listed>> = [];
  // A collection not written is not managed: `items: {}` under authoritative deletes them all.
  if (value.items !== undefined) {
    const path = `${repoPath(repo)}/actions/variables`;
    collections.push(
      valueCollection(place, path, "", `the variables of ${place.scope}`, mode, value.items),
    );
  }
  for (const [environment, written] of Object.entries(value.environments ?? {})) {
    if (written.items === undefined) continue;
    const path = `${repoPath(repo)}/environments/${encodeURIComponent(environment)}/variables`;
    collections.push(
      valueCollection(
        place,
        path,
        `environments/${environment}/`,
        `the variables of environment ${environment} of ${place.scope}`,
        written.mode ?? mode,
        written.items,
        `environment ${environment} was not found: it must exist when this is applied (the environments setting creates it first)`,
      ),
    );
  }
  return (await Promise.all(collections.map(planCollection))).flat();
}

/** An organization variable as compared: value, visibility and, when selected, the repositories. */
interface Shared {
  value: string;
  visibility: string;
  selected_repositories?: string[];
}

async function planShared(
  reader: ResourceReader,
  org: string,
  path: string,
  name: string,
  desired: OrganizationVariable,
  live: Listed | undefined,
): Promise<Partial<Change>> {
  const wanted: Shared = { value: desired.value, visibility: desired.visibility };
  const selected = desired.visibility === "selected" ? desired.selected_repositories : undefined;
  if (selected !== undefined) wanted.selected_repositories = nameSet(selected);
  const ids = async () =>
    selected === undefined ? { ids: [] } : repositoryIds(reader, org, selected);
  if (live === undefined) {
    const resolved = await ids();
    if ("error" in resolved) return { error: resolved.error };
    return {
      action: "create",
      diff: diffValues({}, wanted),
      requests: [
        {
          method: "POST",
          path,
          body: {
            name,
            value: desired.value,
            visibility: desired.visibility,
            ...(desired.visibility === "selected" ? { selected_repository_ids: resolved.ids } : {}),
          },
        },
      ],
      live_fingerprint: fingerprint(null),
    };
  }
  const current: Shared = { value: live.value, visibility: live.visibility ?? "" };
  if (live.visibility === "selected" && selected !== undefined) {
    const listed = await listedNames(reader, `${path}/${name}/repositories`);
    if ("error" in listed) return { error: listed.error };
    current.selected_repositories = listed.names;
  }
  const diff = diffValues(current, wanted);
  const planned = { live_fingerprint: fingerprint(current) };
  if (diff.length === 0) return planned;
  const changed = (key: string) => diff.some((entry: DiffEntry) => entry.path === key);
  const body: Record<string, unknown> = {};
  if (changed("value")) body.value = desired.value;
  if (changed("visibility")) body.visibility = desired.visibility;
  if (
    desired.visibility === "selected" &&
    (changed("visibility") || changed("selected_repositories"))
  ) {
    const resolved = await ids();
    if ("error" in resolved) return { error: resolved.error };
    body.selected_repository_ids = resolved.ids;
  }
  const request: PlannedRequest = { method: "PATCH", path: `${path}/${name}`, body };
  return { ...planned, action: "update", diff, requests: [request] };
}

async function planOrganization(
  reader: ResourceReader,
  org: string,
  value: OrganizationVariables,
  options: PlanOptions,
): Promise<Change[]> {
  // Variables not written are not managed: `items: {}` under authoritative deletes them all.
  if (value.items === undefined) return [];
  const path = `/orgs/${encodeURIComponent(org)}/actions/variables`;
  const collection: Collection<OrganizationVariable, Listed> = {
    target: reader.target,
    scope: org,
    kind: KIND,
    prefix: "",
    what: `the variables of ${org}`,
    mode: value.mode ?? "additive",
    desired: canonicalItems(value.items),
    list: () => listVariables(reader, path),
    plan: (name, desired, live) => planShared(reader, org, path, name, desired, live),
    deleteRequest: (name) => ({ method: "DELETE", path: `${path}/${name}` }),
    shown: (live) => ({ value: live.value, visibility: live.visibility }),
    deleted: options.deleted?.at(reader.target, org, KIND) ?? [],
  };
  return planCollection(collection);
}

/** A repository's own variables as they are live (environments' are not listed by export). */
async function exportRepository(reader: ResourceReader, repo: RepoRef): Promise<unknown> {
  const path = `${repoPath(repo)}/actions/variables`;
  const live = mustFind(await listVariables(reader, path), path);
  if (live.size === 0) return undefined;
  return {
    mode: "additive",
    items: Object.fromEntries([...live].map(([name, item]) => [name, item.value])),
  };
}

async function exportOrganization(reader: ResourceReader, org: string): Promise<unknown> {
  const path = `/orgs/${encodeURIComponent(org)}/actions/variables`;
  const live = mustFind(await listVariables(reader, path), path);
  if (live.size === 0) return undefined;
  const items: Record<string, OrganizationVariable> = {};
  for (const [name, item] of live) {
    const visibility = item.visibility;
    if (visibility === undefined) {
      throw readFailure(changeError(`variable ${name} has no visibility`, "GET", path, 200));
    }
    items[name] = { value: item.value, visibility };
    if (visibility === "selected") {
      const listed = await listedNames(reader, `${path}/${name}/repositories`);
      if ("error" in listed) throw readFailure(listed.error);
      items[name].selected_repositories = listed.names;
    }
  }
  return { mode: "additive", items };
}

const print = () => [{ kind: KIND, name: "*", path: [] }];

/**
 * What a value defines: each variable, by its canonical name where it is written; a collection
 * under `mode: authoritative` is one resource, since what it deletes depends on all it lists.
 */
function definesRepository(value: unknown) {
  const written = value as RepositoryVariables;
  if (written.mode === "authoritative") {
    return [{ id: "variables", path: [], what: "the variables (mode: authoritative)" }];
  }
  return [
    ...namesDefined(written.items, [], ""),
    ...Object.entries(written.environments ?? {}).flatMap(([environment, env]) =>
      env.mode === "authoritative"
        ? [
            {
              id: `environments/${environment}`,
              path: ["environments", environment],
              what: `the variables of environment ${environment} (mode: authoritative)`,
            },
          ]
        : namesDefined(env.items, ["environments", environment], `environments/${environment}/`),
    ),
  ];
}

function namesDefined(items: Record<string, unknown> | undefined, at: string[], prefix: string) {
  return Object.keys(items ?? {}).map((name) => ({
    id: `${prefix}${canonicalName(name)}`,
    path: [...at, "items", name],
    what: `the variable ${prefix}${canonicalName(name)}`,
  }));
}

export const variableKind: KindModule = {
  name: KIND,
  repository: {
    setting: {
      key: "variables",
      schema: repositoryVariables,
      defines: definesRepository,
      print,
    },
    plan: ({ reader, repo, value, options }) =>
      planRepository(reader, repo, value as RepositoryVariables, options),
    export: exportRepository,
  },
  organization: {
    setting: {
      key: "variables",
      schema: organizationVariables,
      defines: (value) => {
        const written = value as OrganizationVariables;
        return written.mode === "authoritative"
          ? [{ id: "variables", path: [], what: "the variables (mode: authoritative)" }]
          : namesDefined(written.items, [], "");
      },
      print,
    },
    plan: ({ reader, org, value, options }) =>
      planOrganization(reader, org, value as OrganizationVariables, options),
    export: exportOrganization,
  },
};
