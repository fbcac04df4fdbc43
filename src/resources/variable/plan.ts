import type { Change, DiffEntry, PlannedRequest } from "../../core/plan.js";
import {
  environmentCollections,
  type Members,
  planNamed,
  sharingPlan,
} from "../actions-collections.js";
import type { MemberChange } from "../collection.js";
import { repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { PlanOptions } from "../kind.js";
import { type Listed, listVariables } from "./canonical.js";
import type {
  OrganizationVariable,
  OrganizationVariables,
  RepositoryVariables,
} from "./settings.js";

/**
 * A variable's value is compared as text; a missing one is created (`POST`), a different one updated
 * (`PATCH`), and under `mode: authoritative` one not written is deleted (../collection.ts). An
 * organization variable's visibility and selected repositories (by name) are compared too.
 */

const KIND = "variable";

/** A repository's or environment's variable: its value only. */
function planValue(
  path: string,
  name: string,
  desired: string,
  live: Listed | undefined,
): MemberChange {
  if (live === undefined) {
    return {
      action: "create",
      diff: [{ path: "value", after: desired }],
      requests: [{ method: "POST", path, body: { name, value: desired } }],
      live_fingerprint: fingerprint(null),
    };
  }
  const planned = { live_fingerprint: fingerprint({ value: live.value }) };
  if (live.value === desired) return planned;
  return {
    ...planned,
    action: "update",
    diff: [{ path: "value", before: live.value, after: desired }],
    requests: [{ method: "PATCH", path: `${path}/${name}`, body: { value: desired } }],
  };
}

export function planRepository(
  reader: ResourceReader,
  repo: RepoRef,
  value: RepositoryVariables,
  options: PlanOptions,
): Promise<Change[]> {
  const scope = `${repo.owner}/${repo.name}`;
  const mode = value.mode ?? "additive";
  const base = repoPath(repo);
  const members: Members<string, Listed> = {
    list: (path) => listVariables(reader, path),
    plan: planValue,
    shown: (live) => ({ value: live.value }),
  };
  return planNamed({ reader, scope, kind: KIND, options }, members, [
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
  ]);
}

/** An organization variable as compared: its value, and how it is shared. */
async function planShared(
  reader: ResourceReader,
  org: string,
  path: string,
  name: string,
  desired: OrganizationVariable,
  live: Listed | undefined,
): Promise<MemberChange> {
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

export function planOrganization(
  reader: ResourceReader,
  org: string,
  value: OrganizationVariables,
  options: PlanOptions,
): Promise<Change[]> {
  const members: Members<OrganizationVariable, Listed> = {
    list: (path) => listVariables(reader, path),
    plan: (path, name, desired, live) => planShared(reader, org, path, name, desired, live),
    shown: (live) => ({ value: live.value, visibility: live.visibility }),
  };
  return planNamed({ reader, scope: org, kind: KIND, options }, members, [
    {
      path: `/orgs/${encodeURIComponent(org)}/actions/variables`,
      prefix: "",
      what: `the variables of ${org}`,
      mode: value.mode ?? "additive",
      items: value.items,
    },
  ]);
}
