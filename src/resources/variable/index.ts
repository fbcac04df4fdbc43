import * as z from "zod";
import type { Change, DiffEntry, PlannedRequest } from "../../core/plan.js";
import { mustFind, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { KindModule, PlanOptions } from "../kind.js";
import {
  definedMembers,
  environmentCollections,
  listByName,
  sharingOf,
  sharingPlan,
} from "../actions-collections.js";
import { canonicalName } from "../actions-names.js";
import { type Members, planNamed } from "../collection.js";
import {
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

function listVariables(reader: ResourceReader, path: string) {
  return listByName(reader, path, { name: "variables", schema: listedVariable }, "variables", {
    per_page: PER_PAGE,
  });
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

/** A repository's or environment's variables: each compared by value. */
function values(reader: ResourceReader): Members<string, Listed> {
  return {
    list: (path) => listVariables(reader, path),
    plan: planValue,
    shown: (live) => ({ value: live.value }),
  };
}

function planRepository(
  reader: ResourceReader,
  repo: RepoRef,
  value: RepositoryVariables,
  options: PlanOptions,
): Promise<Change[]> {
  const scope = `${repo.owner}/${repo.name}`;
  const mode = value.mode ?? "additive";
  const base = repoPath(repo);
  return planNamed(
    { reader, scope, kind: KIND, options, members: values(reader), canonical: canonicalName },
    [
      {
        path: `${base}/actions/variables`,
        prefix: "",
        what: `the variables of ${scope}`,
        mode,
        items: value.items,
      },
      ...environmentCollections(
        base,
        scope,
        "variables",
        value.environments,
        mode,
        (env) => env.items,
      ),
    ],
  );
}

/** An organization variable as compared: its value, and how it is shared. */
async function planShared(
  reader: ResourceReader,
  org: string,
  path: string,
  name: string,
  desired: OrganizationVariable,
  live: Listed | undefined,
): Promise<Partial<Change>> {
  const sharing = await sharingPlan(reader, org, `${path}/${name}`, desired, live);
  if ("error" in sharing) return { error: sharing.error };
  const wanted = { value: desired.value, ...sharing.wanted };
  if (live === undefined || sharing.current === undefined) {
    const resolved = await sharing.ids();
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
  const current = { value: live.value, ...sharing.current };
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
    const resolved = await sharing.ids();
    if ("error" in resolved) return { error: resolved.error };
    body.selected_repository_ids = resolved.ids;
  }
  const request: PlannedRequest = { method: "PATCH", path: `${path}/${name}`, body };
  return { ...planned, action: "update", diff, requests: [request] };
}

function planOrganization(
  reader: ResourceReader,
  org: string,
  value: OrganizationVariables,
  options: PlanOptions,
): Promise<Change[]> {
  const path = `/orgs/${encodeURIComponent(org)}/actions/variables`;
  const members: Members<OrganizationVariable, Listed> = {
    list: (at) => listVariables(reader, at),
    plan: (at, name, desired, live) => planShared(reader, org, at, name, desired, live),
    shown: (live) => ({ value: live.value, visibility: live.visibility }),
  };
  return planNamed({ reader, scope: org, kind: KIND, options, members, canonical: canonicalName }, [
    {
      path,
      prefix: "",
      what: `the variables of ${org}`,
      mode: value.mode ?? "additive",
      items: value.items,
    },
  ]);
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
    items[name] = {
      value: item.value,
      ...(await sharingOf(reader, path, KIND, name, item.visibility)),
    };
  }
  return { mode: "additive", items };
}

const print = () => [{ kind: KIND, name: "*", path: [] }];

function defines(value: unknown) {
  const written = value as RepositoryVariables | OrganizationVariables;
  return definedMembers(
    KIND,
    written,
    [{ key: "items", prefix: "", items: written.items }],
    (env) => ({
      key: "items",
      items: env.items,
    }),
  );
}

export const variableKind: KindModule = {
  name: KIND,
  repository: {
    setting: {
      key: "variables",
      schema: repositoryVariables,
      defines,
      print,
      // GitHub keeps variables in plain text: a reference there must be marked public.
      plain: [
        ["items", "*"],
        ["environments", "*", "items", "*"],
      ],
    },
    plan: ({ reader, repo, value, options }) =>
      planRepository(reader, repo, value as RepositoryVariables, options),
    export: exportRepository,
  },
  organization: {
    setting: {
      key: "variables",
      schema: organizationVariables,
      defines,
      print,
      plain: [["items", "*", "value"]],
    },
    plan: ({ reader, org, value, options }) =>
      planOrganization(reader, org, value as OrganizationVariables, options),
    export: exportOrganization,
  },
};
