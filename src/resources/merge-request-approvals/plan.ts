import { selectedName } from "../../config/glob.js";
import { type Change, type ChangesByPlace, newChange } from "../../core/plan.js";
import { type Member, type MemberChange, type Match, planCollection } from "../collection.js";
import { changeError, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { projectPath } from "../gitlab-paths.js";
import {
  approvalSettingsAnswer,
  type CanonicalRule,
  canonicalLive,
  type LiveRule,
  liveRuleShape,
} from "./canonical.js";
import { Approvers, type Context } from "./approvers.js";
import {
  type ApprovalRule,
  type ApprovalSettings,
  type MergeRequestApprovals,
  SETTING_FIELDS,
  typeOf,
} from "./settings.js";

/**
 * A project's merge-request approvals:
 *
 * - `settings`: one change, one `POST /projects/:id/approvals` of the fields that differ (GitLab's
 *   "Change configuration" is a POST that updates);
 * - `rules/<name>`: one change a rule, planned by `planCollection`: a POST for a new rule, a PUT
 *   of the whole rule for a changed one, a DELETE for `null` or (authoritative) one not written.
 *   The `any_approver` rule is matched by its type, so a new name or count for it is a PUT of the
 *   existing rule, never a second POST (GitLab refuses a second: "any-approver for the project
 *   already exists"); a rule of another type holding the name it is given is deleted first, in
 *   the same change. GitLab's PUT takes no `rule_type`, so a rule whose type changes is replaced:
 *   its DELETE, then the POST.
 */

export const KIND = "merge_request_approvals";

async function planSettings(ctx: Context, settings: ApprovalSettings): Promise<Change> {
  const change = newChange(ctx.reader.target, ctx.scope, KIND, "settings");
  const path = `${ctx.path}/approvals`;
  const read = await ctx.reader.getOrAbsent(path, approvalSettingsAnswer);
  if (read.kind === "error") return { ...change, error: read.error };
  if (read.kind === "absent") {
    return {
      ...change,
      error: changeError(
        `answered 404 (${read.detail}): ${ctx.scope} is not visible to ${ctx.reader.credential}`,
        "GET",
        path,
        404,
      ),
    };
  }
  const live: Record<string, boolean> = {};
  const body: Record<string, boolean> = {};
  for (const field of SETTING_FIELDS) {
    const wanted = settings[field];
    if (wanted === undefined) continue;
    live[field] = read.data[field];
    if (read.data[field] !== wanted) body[field] = wanted;
  }
  const planned = { ...change, live_fingerprint: fingerprint(live) };
  if (Object.keys(body).length === 0) return planned;
  const after = { ...read.data, ...body };
  if (after.selective_code_owner_removals && after.reset_approvals_on_push) {
    return {
      ...change,
      error: changeError(
        `selective_code_owner_removals would be true while reset_approvals_on_push is true in ${ctx.scope} (live and written together): GitLab refuses it; write reset_approvals_on_push: false`,
      ),
    };
  }
  return {
    ...planned,
    action: "update",
    diff: diffValues(live, { ...live, ...body }),
    requests: [{ method: "POST", path, body }],
  };
}

/** A written rule in the form it is compared in. */
function canonicalWanted(name: string, written: ApprovalRule): CanonicalRule {
  const all = written.applies_to_all_protected_branches ?? false;
  return {
    name,
    rule_type: typeOf(written),
    approvals_required: written.approvals_required ?? 0,
    users: (written.users ?? []).map((user) => user.toLowerCase()).sort(),
    groups: (written.groups ?? []).map((group) => group.toLowerCase()).sort(),
    protected_branches: all ? [] : [...(written.protected_branches ?? [])].sort(),
    applies_to_all_protected_branches: all,
  };
}

/**
 * The live rule a written one is about: the any_approver rule for one of that type (whatever its
 * name), else the rule of its name — except a live any_approver rule the written any_approver rule
 * claims, which a rule of its old name is not about: a regular rule of that name is created once
 * the any_approver rule, planned first, has its new name, and a `null` one is already absent then.
 */
function matchRule(claimed: boolean) {
  return (member: Member<ApprovalRule | null>, live: readonly LiveRule[]): Match<LiveRule> => {
    const byName = live.find((rule) => rule.name === member.name);
    if (member.desired !== null && typeOf(member.desired) === "any_approver")
      return { live: live.find((rule) => rule.rule_type === "any_approver") ?? byName };
    if (byName?.rule_type === "any_approver" && claimed) return { live: undefined };
    return { live: byName };
  };
}

function deleteOf(ctx: Context, live: LiveRule): MemberChange {
  return {
    action: "delete",
    diff: diffValues(canonicalLive(live), null),
    requests: [{ method: "DELETE", path: `${ctx.path}/approval_rules/${live.id}` }],
    live_fingerprint: fingerprint(canonicalLive(live)),
  };
}

/**
 * The live rule of another type that holds the name the any_approver rule is renamed to: the
 * written rule of that name is the any_approver one, so the other goes first (GitLab keeps names
 * unique in a project: "has already been taken").
 */
function displacedBy(
  member: Member<ApprovalRule | null>,
  live: LiveRule | undefined,
  listed: readonly LiveRule[],
): LiveRule | undefined {
  if (member.desired === null || typeOf(member.desired) !== "any_approver") return undefined;
  if (live?.rule_type !== "any_approver" || live.name === member.name) return undefined;
  return listed.find((rule) => rule.name === member.name && rule !== live);
}

async function planRule(
  ctx: Context,
  approvers: Approvers,
  member: Member<ApprovalRule | null>,
  live: LiveRule | undefined,
  listed: readonly LiveRule[],
): Promise<MemberChange> {
  const before = live === undefined ? null : canonicalLive(live);
  const written = member.desired;
  if (written === null)
    return live === undefined ? { live_fingerprint: fingerprint(null) } : deleteOf(ctx, live);
  const after = canonicalWanted(member.name, written);
  if (before !== null && JSON.stringify(before) === JSON.stringify(after))
    return { live_fingerprint: fingerprint(before) };
  const body = await approvers.body(member.name, written);
  if ("error" in body) return { error: body.error };
  const rules = `${ctx.path}/approval_rules`;
  const planned = { diff: diffValues(before, after), live_fingerprint: fingerprint(before) };
  const post = {
    method: "POST" as const,
    path: rules,
    body: { ...body.body, rule_type: after.rule_type },
  };
  if (live === undefined) return { ...planned, action: "create", requests: [post] };
  if (live.rule_type !== after.rule_type) {
    return {
      ...planned,
      action: "update",
      requests: [{ method: "DELETE", path: `${rules}/${live.id}` }, post],
      notes: [
        `replaced: GitLab's PUT of an approval rule takes no rule_type, so the ${live.rule_type} rule is deleted and created again as ${after.rule_type}; if the create fails, the rule is missing until the next apply`,
      ],
    };
  }
  const put = { method: "PUT" as const, path: `${rules}/${live.id}`, body: body.body };
  const displaced = displacedBy(member, live, listed);
  if (displaced === undefined) return { ...planned, action: "update", requests: [put] };
  return {
    ...planned,
    action: "update",
    diff: [
      ...planned.diff,
      ...diffValues({ displaced: canonicalLive(displaced) }, { displaced: null }),
    ],
    requests: [{ method: "DELETE", path: `${rules}/${displaced.id}` }, put],
    live_fingerprint: fingerprint({ rule: before, displaced: canonicalLive(displaced) }),
    notes: [
      `the ${displaced.rule_type} rule ${JSON.stringify(displaced.name)} is deleted first: the any_approver rule takes its name`,
    ],
  };
}

async function planRules(
  ctx: Context,
  rules: NonNullable<MergeRequestApprovals["rules"]>,
  approvers: Approvers,
  deleted: readonly Change[],
): Promise<Change[]> {
  const written = Object.entries(rules.items ?? {});
  const isAny = ([, rule]: (typeof written)[number]) =>
    rule !== null && typeOf(rule) === "any_approver";
  // The any_approver rule first: its rename frees its old name for a rule created after it.
  const members = [...written.filter(isAny), ...written.filter((entry) => !isAny(entry))].map(
    ([name, desired]) => ({ name, desired }),
  );
  const path = `${ctx.path}/approval_rules`;
  const match = matchRule(written.some(isAny));
  return planCollection<ApprovalRule | null, LiveRule>({
    reader: ctx.reader,
    scope: ctx.scope,
    kind: KIND,
    prefix: "rules/",
    what: `the approval rules of ${ctx.scope}`,
    mode: rules.mode ?? "additive",
    members,
    path,
    list: () => ctx.reader.list(path, undefined, liveRuleShape),
    nameOf: (live) => live.name,
    match,
    // A live rule is kept when a written one is about it, or gives way to the any_approver rule.
    kept: (live, listed) =>
      members.some((member) => {
        const found = match(member, listed);
        const about = "live" in found ? found.live : undefined;
        return about === live || displacedBy(member, about, listed) === live;
      }),
    plan: (member, live, listed) => planRule(ctx, approvers, member, live, listed),
    remove: (live) => ({ name: live.name, change: deleteOf(ctx, live) }),
    deleted,
  });
}

/** Plans one project's approvals. */
export async function planMergeRequestApprovals(input: {
  reader: ResourceReader;
  project: RepoRef;
  value: MergeRequestApprovals;
  /** When the plan verifies an apply: the deletes it carried out. */
  deleted: ChangesByPlace | undefined;
}): Promise<Change[]> {
  const { reader, project, value } = input;
  const ctx: Context = {
    reader,
    path: projectPath(project),
    scope: selectedName(project.owner, project.name),
  };
  const deleted = input.deleted?.at(reader.target, ctx.scope, KIND) ?? [];
  const changes: Change[] = [];
  if (value.settings !== undefined) changes.push(await planSettings(ctx, value.settings));
  if (value.rules !== undefined)
    changes.push(...(await planRules(ctx, value.rules, new Approvers(ctx), deleted)));
  return changes;
}

/** The reads planning a value takes at least: the settings and the rules. */
export function approvalReads(value: MergeRequestApprovals): number {
  return (value.settings === undefined ? 0 : 1) + (value.rules === undefined ? 0 : 1);
}
