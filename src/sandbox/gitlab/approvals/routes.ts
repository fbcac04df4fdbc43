import { grapeBoolean, grapeInteger, grapeIntegers } from "../grape-values.js";
import {
  gitlabBadParameter,
  gitlabForbidden,
  gitlabNotFound,
  gitlabPageReply,
  HttpError,
  idParam,
  noContent,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { GITLAB_TIERS } from "../tiers.js";
import { canSeeGroup, visibleProject } from "../world/access.js";
import type { Project } from "../world/records.js";
import { protectedBranchById } from "./protected-branches.js";
import {
  APPROVALS_REQUIRED_MAX,
  type ApprovalRuleRecord,
  approvalRuleIds,
  approvalRulesOf,
  approvalSettingsOf,
  RULE_TYPES,
  type RuleType,
  SETTING_FIELDS,
} from "./records.js";
import { approvalRule, approvalSettings } from "./shapes.js";

/**
 * GitLab's project approvals (ee/lib/api/project_approvals.rb, project_approval_rules.rb; docs,
 * "Merge request approvals API"). Below Premium every endpoint answers 403 (`authorize!`, the
 * approvers permissions being Premium's `merge_request_approvers` feature); writes need the
 * Maintainer role (403). A rule's users are kept only where they are members of the project and
 * its groups only where the caller can see them, without a word for the others
 * (ApprovalRules::ParamsFilteringService, `project.members_among`); protected branch ids only of
 * the project's protected branches. A project has at most one `any_approver` rule: a second is
 * refused with 400 `{"message": {"rule_type": ["any-approver for the project already exists"]}}`
 * (quoted in gitlabform/gitlabform#482 and, with the name's error beside it,
 * gitlabhq/terraform-provider-gitlab#949); a rule created without `rule_type` and without
 * approvers is that rule (gitlabform#482 and #388: a POST of a name and a count alone made an
 * `any_approver` rule).
 */

function approvalsProject(ctx: RequestContext, write: boolean): Project {
  const project = visibleProject(ctx);
  if (GITLAB_TIERS.indexOf(ctx.world.tier) < GITLAB_TIERS.indexOf("premium"))
    throw gitlabForbidden();
  if (write && !ctx.world.hasRole(project, ctx.caller, "maintainer")) throw gitlabForbidden();
  return project;
}

/** A model validation failure: 400 `{"message": {attribute: [message]}}`. */
function invalid(errors: Record<string, string[]>): HttpError {
  return new HttpError({ status: 400, body: { message: errors } });
}

/** A rule of the project, else ActiveRecord's RecordNotFound: "404 Not found" (lib/api/api.rb). */
function ruleOf(ctx: RequestContext, project: Project): ApprovalRuleRecord {
  const id = idParam(ctx.params.approval_rule_id);
  const rule = approvalRulesOf(project).find((candidate) => candidate.id === id);
  if (rule === undefined) throw gitlabNotFound();
  return rule;
}

/** The approvers and branches a POST or PUT gives, as GitLab keeps them (see the module). */
function approvers(ctx: RequestContext, project: Project, params: Record<string, unknown>) {
  const members = new Set(ctx.world.effectiveMembers(project).map((member) => member.user.id));
  const given = (name: string) => params[name] !== undefined && params[name] !== null;
  const users =
    given("user_ids") || given("usernames")
      ? [
          ...new Set([
            ...grapeIntegers(params.user_ids),
            ...((Array.isArray(params.usernames) ? params.usernames : []) as unknown[]).flatMap(
              (name) => {
                const user = typeof name === "string" ? ctx.world.user(name) : undefined;
                return user === undefined ? [] : [user.id];
              },
            ),
          ]),
        ].filter((id) => members.has(id))
      : undefined;
  const groups = given("group_ids")
    ? [...new Set(grapeIntegers(params.group_ids))].filter((id) => {
        const found = ctx.world.groups.get(id);
        return found !== undefined && canSeeGroup(ctx, found, ctx.caller);
      })
    : undefined;
  const branches = given("protected_branch_ids")
    ? [...new Set(grapeIntegers(params.protected_branch_ids))].filter(
        (id) => protectedBranchById(project, id) !== undefined,
      )
    : undefined;
  return { users, groups, branches };
}

/** The model's validations of a rule as it would be saved (ApprovalProjectRule, ApprovalRuleLike). */
function validateRule(project: Project, rule: ApprovalRuleRecord): void {
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  const others = approvalRulesOf(project).filter((other) => other.id !== rule.id);
  if (rule.name.trim() === "") add("name", "can't be blank");
  else if (others.some((other) => other.name === rule.name)) add("name", "has already been taken");
  if (rule.approvals_required < 0) add("approvals_required", "must be greater than or equal to 0");
  if (rule.approvals_required > APPROVALS_REQUIRED_MAX)
    add("approvals_required", `must be less than or equal to ${APPROVALS_REQUIRED_MAX}`);
  if (
    rule.rule_type === "any_approver" &&
    others.some((other) => other.rule_type === "any_approver")
  )
    add("rule_type", "any-approver for the project already exists");
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

const SETTINGS_PARAMETERS = ["approvals_before_merge", ...SETTING_FIELDS] as const;

export const approvalRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/approvals",
    operation: "GET /api/v4/projects/{id}/approvals",
    handler: (ctx) => ok(approvalSettings(approvalSettingsOf(approvalsProject(ctx, false)))),
  },
  {
    /**
     * "Change configuration": only the fields given; `selective_code_owner_removals` only while
     * approvals are not reset on push ("Can be enabled only if reset_approvals_on_push is
     * disabled", MergeRequest::ApprovalRemovalSettings: 400, nothing changed).
     */
    method: "POST",
    pattern: "/api/v4/projects/:id/approvals",
    operation: "POST /api/v4/projects/{id}/approvals",
    handler: (ctx) => {
      const project = approvalsProject(ctx, true);
      const params = parameters(ctx);
      const given = SETTINGS_PARAMETERS.filter((name) => params[name] !== undefined);
      if (given.length === 0)
        throw gitlabBadParameter(
          `${SETTINGS_PARAMETERS.join(", ")} are missing, at least one parameter must be provided`,
        );
      const settings = approvalSettingsOf(project);
      const update: Record<string, unknown> = {};
      for (const name of given)
        update[name] =
          name === "approvals_before_merge"
            ? grapeInteger(params[name])
            : grapeBoolean(params[name]);
      const after = { ...settings, ...update };
      if (after.selective_code_owner_removals === true && after.reset_approvals_on_push === true)
        throw invalid({
          selective_code_owner_removals: [
            "can only be enabled when reset_approvals_on_push is disabled",
          ],
        });
      Object.assign(settings, update);
      return ok(approvalSettings(settings), 201);
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/approval_rules",
    operation: "GET /api/v4/projects/{id}/approval_rules",
    handler: (ctx) => {
      const project = approvalsProject(ctx, false);
      return gitlabPageReply(ctx, approvalRulesOf(project), (rule) =>
        approvalRule(ctx.world, ctx.base, project, rule),
      );
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/approval_rules/:approval_rule_id",
    operation: "GET /api/v4/projects/{id}/approval_rules/{approval_rule_id}",
    handler: (ctx) => {
      const project = approvalsProject(ctx, false);
      return ok(approvalRule(ctx.world, ctx.base, project, ruleOf(ctx, project)));
    },
  },
  {
    method: "POST",
    pattern: "/api/v4/projects/:id/approval_rules",
    operation: "POST /api/v4/projects/{id}/approval_rules",
    handler: (ctx) => {
      const project = approvalsProject(ctx, true);
      const params = parameters(ctx);
      const { users, groups, branches } = approvers(ctx, project, params);
      const written = params.rule_type;
      if (written !== undefined && !(RULE_TYPES as readonly unknown[]).includes(written))
        throw gitlabBadParameter("rule_type does not have a valid value");
      const noApprovers =
        params.user_ids === undefined &&
        params.usernames === undefined &&
        params.group_ids === undefined;
      const all = grapeBoolean(params.applies_to_all_protected_branches) === true;
      const rule: ApprovalRuleRecord = {
        id: 0,
        name: String(params.name),
        rule_type: (written as RuleType | undefined) ?? (noApprovers ? "any_approver" : "regular"),
        report_type: typeof params.report_type === "string" ? params.report_type : null,
        approvals_required: Number(grapeInteger(params.approvals_required)),
        userIds: users ?? [],
        groupIds: groups ?? [],
        protectedBranchIds: all ? [] : (branches ?? []),
        applies_to_all_protected_branches: all,
      };
      validateRule(project, rule);
      rule.id = approvalRuleIds(ctx.world).next++;
      approvalRulesOf(project).push(rule);
      return ok(approvalRule(ctx.world, ctx.base, project, rule), 201);
    },
  },
  {
    /**
     * "Update project-level rule": the approvers given replace the rule's ("Approvers and groups
     * … are removed"); a list not given is kept. It takes no `rule_type`.
     */
    method: "PUT",
    pattern: "/api/v4/projects/:id/approval_rules/:approval_rule_id",
    operation: "PUT /api/v4/projects/{id}/approval_rules/{approval_rule_id}",
    handler: (ctx) => {
      const project = approvalsProject(ctx, true);
      const rule = ruleOf(ctx, project);
      const params = parameters(ctx);
      const { users, groups, branches } = approvers(ctx, project, params);
      const given = params.applies_to_all_protected_branches;
      const all =
        given === undefined ? rule.applies_to_all_protected_branches : grapeBoolean(given) === true;
      const after: ApprovalRuleRecord = {
        ...rule,
        name: params.name === undefined ? rule.name : String(params.name),
        approvals_required:
          params.approvals_required === undefined
            ? rule.approvals_required
            : Number(grapeInteger(params.approvals_required)),
        userIds: users ?? rule.userIds,
        groupIds: groups ?? rule.groupIds,
        protectedBranchIds: all ? [] : (branches ?? rule.protectedBranchIds),
        applies_to_all_protected_branches: all,
      };
      validateRule(project, after);
      Object.assign(rule, after);
      return ok(approvalRule(ctx.world, ctx.base, project, rule));
    },
  },
  {
    method: "DELETE",
    pattern: "/api/v4/projects/:id/approval_rules/:approval_rule_id",
    operation: "DELETE /api/v4/projects/{id}/approval_rules/{approval_rule_id}",
    handler: (ctx) => {
      const project = approvalsProject(ctx, true);
      const rule = ruleOf(ctx, project);
      const rules = approvalRulesOf(project);
      rules.splice(rules.indexOf(rule), 1);
      return noContent;
    },
  },
];
