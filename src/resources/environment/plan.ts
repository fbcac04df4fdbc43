import type { Change, ChangeError, PlannedRequest } from "../../core/plan.js";
import {
  changeError,
  type ReadResult,
  repoPath,
  type RepoRef,
  type ResourceReader,
} from "../context.js";
import { type MemberChange, planCollection } from "../collection.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { principalSet } from "../principals.js";
import {
  type CanonicalEnvironment,
  type CanonicalPattern,
  ENVIRONMENT_SHAPE,
  fromRead,
  patternOf,
  patternSet,
  POLICY_SHAPE,
  policyKindOf,
  type ReadEnvironment,
  type ReadPolicy,
} from "./canonical.js";
import { reviewerIds } from "./reviewers.js";
import type { EnvironmentSettings, Environments } from "./settings.js";

/**
 * Plans the environments a repository's configuration names (others are left alone) against one
 * listing of them. An environment is written whole with `PUT …/environments/{name}`, sending only
 * what GitHub's request schema for it lists; its custom branch and tag patterns are a set kept
 * through `…/deployment-branch-policies` (POST the missing, DELETE the extra) in the same change,
 * after the PUT that turns custom policies on.
 */

const KIND = "environment";

export function environmentsPath(repo: RepoRef): string {
  return `${repoPath(repo)}/environments`;
}

export function environmentPath(repo: RepoRef, name: string): string {
  return `${environmentsPath(repo)}/${encodeURIComponent(name)}`;
}

export function policiesPath(repo: RepoRef, name: string): string {
  return `${environmentPath(repo, name)}/deployment-branch-policies`;
}

/** The live environments, and how to read one's custom policies. */
export async function listEnvironments(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<ReadResult<ReadEnvironment[]>> {
  return reader.list(environmentsPath(repo), undefined, ENVIRONMENT_SHAPE, {
    itemsUnder: "environments",
  });
}

/** An environment's custom branch and tag policies (only an environment with them on has any). */
export async function readPolicies(
  reader: ResourceReader,
  repo: RepoRef,
  name: string,
): Promise<ReadResult<ReadPolicy[]>> {
  return reader.list(policiesPath(repo, name), undefined, POLICY_SHAPE, {
    itemsUnder: "branch_policies",
  });
}

export interface LiveEnvironment {
  canonical: CanonicalEnvironment;
  /** Its custom policies as listed, with their ids. */
  policies: ReadPolicy[];
}

/** The live environment with its policies, or why it cannot be known. */
export async function liveEnvironment(
  reader: ResourceReader,
  repo: RepoRef,
  env: ReadEnvironment,
): Promise<LiveEnvironment | { error: ChangeError }> {
  if (policyKindOf(env) !== "custom") return { canonical: fromRead(env, undefined), policies: [] };
  const read = await readPolicies(reader, repo, env.name);
  if (read.kind === "error") return { error: read.error };
  if (read.kind === "absent") {
    return {
      error: changeError(
        `environment "${env.name}" has custom branch policies on, but they could not be listed`,
        "GET",
        policiesPath(repo, env.name),
        404,
      ),
    };
  }
  return { canonical: fromRead(env, read.data.map(patternOf)), policies: read.data };
}

/** The desired environment in canonical form: what is not written takes GitHub's default. */
export function desiredOf(settings: EnvironmentSettings): CanonicalEnvironment {
  const policy = settings.deployment_branch_policy ?? null;
  return {
    wait_timer: settings.wait_timer ?? 0,
    prevent_self_review: settings.prevent_self_review ?? false,
    reviewers: {
      users: principalSet(settings.reviewers?.users),
      teams: principalSet(settings.reviewers?.teams),
    },
    deployment_branch_policy:
      policy === null
        ? null
        : "custom" in policy
          ? { custom: patternSet(policy.custom.map(patternOf)) }
          : { protected_branches: true },
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The requests that take the live environment (if any) to the desired one. */
function requestsFor(
  repo: RepoRef,
  name: string,
  live: LiveEnvironment | undefined,
  desired: CanonicalEnvironment,
  reviewers: ReadonlyArray<{ type: "User" | "Team"; id: number }>,
): PlannedRequest[] {
  const policy = desired.deployment_branch_policy;
  const protection = (env: CanonicalEnvironment) => ({ ...env, deployment_branch_policy: null });
  const kind = (value: CanonicalEnvironment["deployment_branch_policy"]) =>
    value === null ? "all" : "custom" in value ? "custom" : "protected";
  const requests: PlannedRequest[] = [];
  if (
    live === undefined ||
    !sameJson(protection(live.canonical), protection(desired)) ||
    kind(live.canonical.deployment_branch_policy) !== kind(policy)
  ) {
    requests.push({
      method: "PUT",
      path: environmentPath(repo, name),
      body: {
        wait_timer: desired.wait_timer,
        prevent_self_review: desired.prevent_self_review,
        reviewers: reviewers.map(({ type, id }) => ({ type, id })),
        deployment_branch_policy:
          policy === null
            ? null
            : {
                protected_branches: !("custom" in policy),
                custom_branch_policies: "custom" in policy,
              },
      },
    });
  }
  if (policy === null || !("custom" in policy)) return requests;
  // Only an environment with custom policies on has any: turning them on starts from none.
  const key = (pattern: CanonicalPattern) => `${pattern.type} ${pattern.name}`;
  const wanted = new Set(policy.custom.map(key));
  const current = live?.policies ?? [];
  const have = new Set(current.map((existing) => key(patternOf(existing))));
  for (const existing of current) {
    if (wanted.has(key(patternOf(existing)))) continue;
    requests.push({ method: "DELETE", path: `${policiesPath(repo, name)}/${existing.id}` });
  }
  for (const pattern of policy.custom) {
    if (have.has(key(pattern))) continue;
    requests.push({ method: "POST", path: policiesPath(repo, name), body: { ...pattern } });
  }
  return requests;
}

async function planOne(
  reader: ResourceReader,
  repo: RepoRef,
  name: string,
  settings: EnvironmentSettings | null,
  found: ReadEnvironment | undefined,
): Promise<MemberChange> {
  const live = found === undefined ? undefined : await liveEnvironment(reader, repo, found);
  if (live !== undefined && "error" in live) return { error: live.error };
  if (settings === null) {
    if (live === undefined || found === undefined) {
      return { live_fingerprint: fingerprint(null) };
    }
    return {
      action: "delete",
      diff: diffValues(live.canonical, {}),
      requests: [{ method: "DELETE", path: environmentPath(repo, found.name) }],
      live_fingerprint: fingerprint(live.canonical),
      notes: ["null in the desired state: the environment, its protection and its secrets go"],
    };
  }
  const desired = desiredOf(settings);
  const resolved = await reviewerIds(
    reader,
    repo.owner,
    desired.reviewers,
    [name, "reviewers"],
    settings.reviewers?.users ?? [],
  );
  if ("error" in resolved) return { error: resolved.error };
  const diff = diffValues(live?.canonical ?? {}, desired);
  const planned = { live_fingerprint: fingerprint(live?.canonical ?? null) };
  if (live !== undefined && diff.length === 0) return planned;
  // The live name keeps its case: GitHub has no rename, and matches names in any case.
  const target = found?.name ?? name;
  return {
    action: live === undefined ? "create" : "update",
    diff,
    requests: requestsFor(repo, target, live, desired, resolved.ids),
    ...planned,
  };
}

/** The environments a repository's configuration names, by name in any case; others are left alone. */
export function planEnvironments(
  reader: ResourceReader,
  repo: RepoRef,
  value: Environments,
): Promise<Change[]> {
  return planCollection({
    reader,
    scope: `${repo.owner}/${repo.name}`,
    kind: KIND,
    what: "the environments",
    mode: "additive",
    members: Object.entries(value).map(([name, desired]) => ({ name, desired })),
    path: environmentsPath(repo),
    list: () => listEnvironments(reader, repo),
    nameOf: (env) => env.name,
    canonical: (name) => name.toLowerCase(),
    plan: ({ name, desired }, found) => planOne(reader, repo, name, desired, found),
  });
}
