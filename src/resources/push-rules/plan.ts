import { selectedName } from "../../config/glob.js";
import { type Change, type ChangeError, newChange } from "../../core/plan.js";
import { changeError, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import {
  canonicalRule,
  groupPushRuleAnswer,
  liveField,
  type PushRuleAnswer,
  projectPushRuleAnswer,
} from "./canonical.js";
import { type PushRule, type PushRules, PUSH_RULE_FIELDS } from "./settings.js";

/**
 * A project's or group's push rule: one resource, `push_rule`. Absent live and written → one POST
 * of the fields written; present → one PUT of the fields that differ; `push_rules: null` and
 * present → one DELETE (applied with --allow-delete, as every delete). GitLab has one rule per
 * project or group and refuses a second POST ("Project push rule exists", 422), so a rule that
 * exists is never created again.
 */

export const KIND = "push_rules";
const NAME = "push_rule";

interface Place {
  reader: ResourceReader;
  /** `/api/v4/projects/acme%2Fapi/push_rule` or `/api/v4/groups/acme/push_rule`. */
  path: string;
  scope: string;
}

/** What GitLab's read says of the rule: there, absent, or the read's error. */
type Live =
  | { kind: "found"; rule: PushRuleAnswer }
  | { kind: "none" }
  | { kind: "error"; error: ChangeError };

/**
 * A project's rule: 200 `null` is "none"; a 404 is never "none" — GitLab answers it where push
 * rules are not available (Free: `check_project_feature_available!(:push_rules)`,
 * ee/lib/api/project_push_rule.rb) or the project is not visible, so it is an error for the rule.
 */
async function readProjectRule(place: Place): Promise<Live> {
  const read = await place.reader.getOrAbsent(place.path, projectPushRuleAnswer);
  if (read.kind === "error") return read;
  if (read.kind === "absent") {
    return {
      kind: "error",
      error: changeError(
        `answered 404 (${read.detail}): GitLab answers 404 where push rules are not available (they need GitLab Premium) or ${place.scope} is not visible to ${place.reader.credential}`,
        "GET",
        place.path,
        404,
      ),
    };
  }
  return read.data === null ? { kind: "none" } : { kind: "found", rule: read.data };
}

/** A group's rule: GitLab answers 404 when the group has none (docs, "Group push rules API"). */
async function readGroupRule(place: Place): Promise<Live> {
  const read = await place.reader.getOrAbsent(place.path, groupPushRuleAnswer);
  if (read.kind === "error") return read;
  return read.kind === "absent" ? { kind: "none" } : { kind: "found", rule: read.data };
}

/**
 * GitLab answers a group's 404 alike for "no push rule" and for "push rules not available here"
 * (`check_group_push_rule_access!` answers `not_found!` without the Owner role or below Premium,
 * ee/lib/api/group_push_rule.rb), so a create planned on a 404 says so.
 */
const GROUP_CREATE_NOTE =
  "GitLab answers 404 both for a group without a push rule and where push rules are not available (below Premium, or a token that is not the group's Owner); the POST tells them apart";

function planRule(place: Place, live: Live, value: PushRules, notes: string[] = []): Change {
  const change = newChange(place.reader.target, place.scope, KIND, NAME);
  if (live.kind === "error") return { ...change, error: live.error };
  const before = live.kind === "found" ? canonicalRule(live.rule) : null;
  const planned = { ...change, live_fingerprint: fingerprint(before) };
  if (value === null) {
    if (before === null) return planned;
    return {
      ...planned,
      action: "delete",
      diff: diffValues(before, null),
      requests: [{ method: "DELETE", path: place.path }],
    };
  }
  if (live.kind === "none") {
    // GitLab's POST needs at least one field (`at_least_one_of`): a rule written with none is
    // GitLab's default rule, created with GitLab's default size limit.
    const body: PushRule = Object.keys(value).length > 0 ? { ...value } : { max_file_size: 0 };
    return {
      ...planned,
      action: "create",
      diff: diffValues(null, value),
      requests: [{ method: "POST", path: place.path, body }],
      ...(notes.length > 0 ? { notes } : {}),
    };
  }
  const body: Record<string, unknown> = {};
  const shown: Record<string, unknown> = {};
  for (const field of PUSH_RULE_FIELDS) {
    const wanted = value[field];
    if (wanted === undefined) continue;
    const current = liveField(live.rule, field);
    shown[field] = current;
    if (current !== wanted) body[field] = wanted;
  }
  if (Object.keys(body).length === 0) return planned;
  return {
    ...planned,
    action: "update",
    diff: diffValues(shown, { ...shown, ...body }),
    requests: [{ method: "PUT", path: place.path, body }],
  };
}

/** Plans a project's push rule. */
export async function planProjectPushRule(input: {
  reader: ResourceReader;
  project: RepoRef;
  value: PushRules;
}): Promise<Change[]> {
  const place: Place = {
    reader: input.reader,
    path: `${projectPath(input.project)}/push_rule`,
    scope: selectedName(input.project.owner, input.project.name),
  };
  return [planRule(place, await readProjectRule(place), input.value)];
}

/** Plans a group's push rule (`group` as written: its full path or id). */
export async function planGroupPushRule(input: {
  reader: ResourceReader;
  group: string;
  value: PushRules;
}): Promise<Change[]> {
  const place: Place = {
    reader: input.reader,
    path: `${groupPath(input.group)}/push_rule`,
    scope: input.group,
  };
  return [planRule(place, await readGroupRule(place), input.value, [GROUP_CREATE_NOTE])];
}

export { readGroupRule };
