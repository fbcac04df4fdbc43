import { selectedName } from "../../config/glob.js";
import type { Change, ChangeError, PlannedRequest, RetryWhile } from "../../core/plan.js";
import { type MemberChange, planCollection } from "../collection.js";
import { changeError, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  BRANCH_LEVELS,
  GitlabNames,
  patchItems,
  premiumShown,
  type Resolved,
  type ResolvedLive,
  resolveLive,
  resolveWritten,
  shownList,
} from "../protected-ref-access.js";
import { projectPath } from "../gitlab-paths.js";
import { BRANCH_SHAPE, type BranchAnswer, type CanonicalBranch, LISTS } from "./canonical.js";
import type { ProtectedBranches, Protection } from "./settings.js";

/**
 * Plans a project's protected branches against one listing of them, keyed by name (a wildcard is
 * a name of its own). A change goes by one `PATCH /projects/:id/protected_branches/:name` naming
 * the live entries' ids — `{id, _destroy: true}` for each removed, new entries without an id —
 * so the branch is never unprotected and entries never pile up (gitlab-org/gitlab#551595).
 * GitLab Free's PATCH cannot change the lists (its `allowed_to_*` arrays are "Premium and
 * Ultimate only", and its description has no `push_access_level`), so there a change of them is
 * the branch unprotected and protected again — "unprotected between two requests" — gated by
 * --allow-protection-gap. A group's protection the project inherits (Premium, `inherited: true`)
 * is never written at the project, nor removed by authoritative mode.
 */

export const KIND = "protected_branches";

/**
 * GitLab refuses to name a user added as a member a moment ago (gitlab-org/gitlab#383666; 422
 * `{"message":["Push access levels user is not a member of the project"]}` as
 * gitlabform/gitlabform#521 quotes it): apply sends such a write again while that is the answer,
 * for 30 seconds at most (src/engine/apply.ts), rather than sleeping a fixed time first.
 */
const NEW_MEMBER: RetryWhile = {
  status: 422,
  message: "user is not a member of the project",
  withinMs: 30_000,
};

interface Context {
  reader: ResourceReader;
  /** The project's protected branches: `/api/v4/projects/<id>/protected_branches`. */
  path: string;
  scope: string;
  names: GitlabNames;
  /** Whether GitLab answered as Premium or above; undefined when its answer could not tell. */
  premium: boolean | undefined;
}

type Lists = Partial<Record<"push" | "merge" | "unprotect", Resolved[]>>;

function branchPath(ctx: Context, name: string): string {
  return `${ctx.path}/${encodeURIComponent(name)}`;
}

/** The written value, its names resolved; the first unknown user or group is an error. */
async function resolveDesired(
  ctx: Context,
  name: string,
  desired: Protection,
): Promise<{ lists: Lists } | { error: ChangeError }> {
  const lists: Lists = {};
  for (const { key } of LISTS) {
    const written = desired[key];
    if (written === undefined) continue;
    const found = await resolveWritten(ctx.names, BRANCH_LEVELS, written, ["branches", name, key]);
    if (!found.ok) return { error: found.error };
    lists[key] = found.value;
  }
  return { lists };
}

/**
 * What GitLab Free cannot keep of a written protection (docs, "Protected branches API": users,
 * groups, deploy keys, `allowed_to_*`, unprotect levels and code owner approval are "Premium and
 * Ultimate only"; a Free protection holds one role per list).
 */
function beyondFree(name: string, desired: Protection, lists: Lists): ChangeError | undefined {
  const field = (key: string) => ["branches", name, key];
  for (const key of ["push", "merge"] as const) {
    const list = lists[key];
    if (list !== undefined && (list.length > 1 || list[0]?.item.access_level === undefined)) {
      return {
        ...changeError(
          `${key} of ${name} is more than one role: GitLab Free keeps one role per list, and users, groups and deploy keys on Premium only`,
        ),
        field: field(key),
      };
    }
  }
  if (desired.unprotect !== undefined)
    return {
      ...changeError(`unprotect of ${name}: GitLab keeps unprotect levels on Premium only`),
      field: field("unprotect"),
    };
  if (desired.code_owner_approval_required === true)
    return {
      ...changeError(`code_owner_approval_required of ${name}: GitLab keeps it on Premium only`),
      field: field("code_owner_approval_required"),
    };
  return undefined;
}

/** The request's retry while a user it names is too new a member, when it names a user. */
function retryFor(items: ReadonlyArray<Record<string, unknown>>): Partial<PlannedRequest> {
  return items.some((item) => typeof item.user_id === "number") ? { retryWhile: NEW_MEMBER } : {};
}

/**
 * The POST that protects `name` as `lists` say: a list of one role by its scalar level (which
 * every tier takes), any other by its `allowed_to_*` array (Premium).
 */
function createRequest(
  ctx: Context,
  name: string,
  lists: Lists,
  flags: Pick<Protection, "allow_force_push" | "code_owner_approval_required">,
): PlannedRequest {
  const body: Record<string, unknown> = { name };
  const items: Array<Record<string, unknown>> = [];
  for (const { key, array, scalar } of LISTS) {
    const list = lists[key];
    if (list === undefined) continue;
    const only = list.length === 1 ? list[0]!.item : undefined;
    if (only !== undefined && only.access_level !== undefined) body[scalar] = only.access_level;
    else body[array] = list.map((entry) => entry.item);
    items.push(...list.map((entry) => entry.item));
  }
  if (flags.allow_force_push !== undefined) body.allow_force_push = flags.allow_force_push;
  if (flags.code_owner_approval_required !== undefined)
    body.code_owner_approval_required = flags.code_owner_approval_required;
  return { method: "POST", path: ctx.path, body, ...retryFor(items) };
}

/** The written fields as compared: each list by name, the flags as written. */
function canonicalOf(desired: Protection, lists: Lists): CanonicalBranch {
  const value: CanonicalBranch = {};
  for (const { key } of LISTS) {
    const list = lists[key];
    if (list !== undefined) value[key] = shownList(list);
  }
  if (desired.allow_force_push !== undefined) value.allow_force_push = desired.allow_force_push;
  if (desired.code_owner_approval_required !== undefined)
    value.code_owner_approval_required = desired.code_owner_approval_required;
  return value;
}

async function liveLists(
  ctx: Context,
  live: BranchAnswer,
): Promise<
  | { lists: Partial<Record<"push" | "merge" | "unprotect", ResolvedLive[]>> }
  | { error: ChangeError }
> {
  const lists: Partial<Record<"push" | "merge" | "unprotect", ResolvedLive[]>> = {};
  for (const { key, answer } of LISTS) {
    const entries = live[answer];
    if (entries === undefined) continue;
    const found = await resolveLive(ctx.names, BRANCH_LEVELS, entries);
    if (!found.ok) return { error: found.error };
    lists[key] = found.value;
  }
  return { lists };
}

/** The live protection as compared, the fields `desired` writes only (all, for a fingerprint). */
function liveCanonical(
  live: BranchAnswer,
  lists: Partial<Record<"push" | "merge" | "unprotect", ResolvedLive[]>>,
  only?: Protection,
): CanonicalBranch {
  const value: CanonicalBranch = {};
  for (const { key } of LISTS) {
    const list = lists[key];
    if (list !== undefined && (only === undefined || only[key] !== undefined))
      value[key] = shownList(list);
  }
  if (only === undefined || only.allow_force_push !== undefined)
    value.allow_force_push = live.allow_force_push;
  if (
    live.code_owner_approval_required !== undefined &&
    (only === undefined || only.code_owner_approval_required !== undefined)
  )
    value.code_owner_approval_required = live.code_owner_approval_required;
  return value;
}

const GAP_NOTE =
  "unprotected between two requests: GitLab Free's PATCH cannot change who may push or merge, so the branch is unprotected (DELETE) and protected again (POST); pipelines and pushes meet it open in between (applied only with --allow-protection-gap)";

function inheritedError(ctx: Context, name: string): ChangeError {
  return {
    ...changeError(
      `branch ${name} of ${ctx.scope} is protected by a group above it (inherited): a project cannot change or remove it; write it in the group's protection`,
      "GET",
      ctx.path,
      200,
    ),
    field: ["branches", name],
  };
}

function deletion(
  ctx: Context,
  live: BranchAnswer,
  canonical: CanonicalBranch,
  why: string,
): MemberChange {
  return {
    action: "delete",
    diff: diffValues(canonical, {}),
    requests: [{ method: "DELETE", path: branchPath(ctx, live.name) }],
    live_fingerprint: fingerprint(canonical),
    notes: [why],
  };
}

async function planExisting(
  ctx: Context,
  name: string,
  desired: Protection,
  lists: Lists,
  live: BranchAnswer,
): Promise<MemberChange> {
  const read = await liveLists(ctx, live);
  if ("error" in read) return { error: read.error };
  const whole = liveCanonical(live, read.lists);
  const before = liveCanonical(live, read.lists, desired);
  const after = canonicalOf(desired, lists);
  const diff = diffValues(before, after);
  const unchanged = { live_fingerprint: fingerprint(whole) };
  if (diff.length === 0) return unchanged;
  if (desired.unprotect !== undefined && live.unprotect_access_levels === undefined)
    return { error: beyondFree(name, desired, lists)! };
  const changed = (key: "push" | "merge" | "unprotect") =>
    lists[key] !== undefined &&
    JSON.stringify(shownList(lists[key]!)) !== JSON.stringify(shownList(read.lists[key] ?? []));
  const flags: Record<string, boolean> = {};
  if (desired.allow_force_push !== undefined && desired.allow_force_push !== live.allow_force_push)
    flags.allow_force_push = desired.allow_force_push;
  if (
    desired.code_owner_approval_required !== undefined &&
    desired.code_owner_approval_required !== (live.code_owner_approval_required ?? false)
  )
    flags.code_owner_approval_required = desired.code_owner_approval_required;
  const listsChanged = LISTS.some(({ key }) => changed(key));
  if (ctx.premium === true || !listsChanged) {
    const body: Record<string, unknown> = { ...flags };
    const items: Array<Record<string, unknown>> = [];
    for (const { key, array } of LISTS) {
      if (!changed(key)) continue;
      body[array] = patchItems(read.lists[key] ?? [], lists[key]!);
      items.push(...(body[array] as Array<Record<string, unknown>>));
    }
    return {
      ...unchanged,
      action: "update",
      diff,
      requests: [{ method: "PATCH", path: branchPath(ctx, name), body, ...retryFor(items) }],
    };
  }
  const tooMuch = beyondFree(name, desired, lists);
  if (tooMuch !== undefined) return { error: tooMuch };
  // Protected again with what is written, and as it is live where nothing is written.
  const again: Lists = {};
  for (const { key } of LISTS) {
    if (key === "unprotect") continue;
    again[key] = lists[key] ?? read.lists[key];
  }
  return {
    ...unchanged,
    action: "update",
    diff,
    gate: "protection_gap",
    notes: [GAP_NOTE],
    requests: [
      { method: "DELETE", path: branchPath(ctx, name) },
      createRequest(ctx, name, again, {
        allow_force_push: desired.allow_force_push ?? live.allow_force_push,
      }),
    ],
  };
}

async function planBranch(
  ctx: Context,
  name: string,
  desired: Protection | null,
  live: BranchAnswer | undefined,
): Promise<MemberChange> {
  if (live?.inherited === true) return { error: inheritedError(ctx, name) };
  if (desired === null) {
    if (live === undefined) return { live_fingerprint: fingerprint(null) };
    const read = await liveLists(ctx, live);
    if ("error" in read) return { error: read.error };
    return deletion(ctx, live, liveCanonical(live, read.lists), "null in the desired state");
  }
  const resolved = await resolveDesired(ctx, name, desired);
  if ("error" in resolved) return { error: resolved.error };
  if (live !== undefined) return planExisting(ctx, name, desired, resolved.lists, live);
  if (ctx.premium === false) {
    const tooMuch = beyondFree(name, desired, resolved.lists);
    if (tooMuch !== undefined) return { error: tooMuch };
  }
  return {
    action: "create",
    diff: diffValues({}, canonicalOf(desired, resolved.lists)),
    requests: [createRequest(ctx, name, resolved.lists, desired)],
    live_fingerprint: fingerprint(null),
  };
}

export function protectedBranchesPath(project: RepoRef): string {
  return `${projectPath(project)}/protected_branches`;
}

/** Plans one project's protected branches. */
export async function planProtectedBranches(input: {
  reader: ResourceReader;
  project: RepoRef;
  value: ProtectedBranches;
  deleted: readonly Change[];
}): Promise<Change[]> {
  const { reader, project, value, deleted } = input;
  const path = protectedBranchesPath(project);
  const ctx: Context = {
    reader,
    path,
    scope: selectedName(project.owner, project.name),
    names: new GitlabNames(reader),
    premium: undefined,
  };
  return planCollection({
    reader,
    scope: ctx.scope,
    kind: KIND,
    what: "the protected branches",
    mode: value.mode ?? "additive",
    members: Object.entries(value.branches ?? {}).map(([name, desired]) => ({ name, desired })),
    path,
    list: async () => {
      const listed = await reader.list(path, undefined, BRANCH_SHAPE);
      if (listed.kind === "found") {
        ctx.premium =
          listed.data.some((branch) => branch.inherited !== undefined) ||
          premiumShown(
            listed.data.flatMap((branch) => [
              ...branch.push_access_levels,
              ...branch.merge_access_levels,
            ]),
          );
      }
      return listed;
    },
    nameOf: (branch) => branch.name,
    plan: ({ name, desired }, live) => planBranch(ctx, name, desired, live),
    remove: async (branch) => {
      // A group's protection is the group's to remove: authoritative mode leaves it alone.
      if (branch.inherited === true) return undefined;
      const read = await liveLists(ctx, branch);
      if ("error" in read) return { name: branch.name, change: { error: read.error } };
      return {
        name: branch.name,
        change: deletion(
          ctx,
          branch,
          liveCanonical(branch, read.lists),
          "not in the desired state (protected_branches mode: authoritative)",
        ),
      };
    },
    size: (listed) => listed.filter((branch) => branch.inherited !== true).length,
    deleted,
  });
}
