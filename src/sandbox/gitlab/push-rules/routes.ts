import { grapeBoolean, grapeInteger } from "../grape-values.js";
import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  HttpError,
  noContent,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { GITLAB_TIERS } from "../tiers.js";
import { visibleGroup, visibleProject } from "../world/access.js";
import {
  FIELDS,
  type Field,
  groupRuleOf,
  newRule,
  projectRuleOf,
  type PushRuleRecord,
  REGEX_FIELDS,
} from "./records.js";
import { pushRule } from "./shapes.js";

/**
 * GitLab's push-rule endpoints (ee/lib/api/project_push_rule.rb, ee/lib/api/group_push_rule.rb;
 * docs, "Project push rules API", "Group push rules API"), in the order GitLab checks:
 *
 * - a project: the Maintainer role (`authorize_admin_project`, else 403), then the tier
 *   (`check_project_feature_available!(:push_rules)`: 404 below Premium); a project that has no
 *   rule answers 200 `null`;
 * - a group: the Owner role and the tier together (`check_group_push_rule_access!`: `not_found!`
 *   unless `can?(current_user, :change_push_rules, group)`), so below Premium or below Owner the
 *   answer is the same 404 as a group without a rule;
 * - then the parameters (request-parameters.ts; `at_least_one_of` of the thirteen fields: 400),
 *   a POST where a rule exists (422 "Project push rule exists" / "Group push rule exists, try
 *   updating"), a PUT or DELETE where none does (404 "Push Rule Not Found" / "Push rule Not
 *   Found"), and the model's validations: an expression RE2 cannot compile (400 `{"message":
 *   {"<field>": ["not valid RE2 syntax: …"]}}`), a negative `max_file_size`.
 */

// GitLab's `not_found!` without a resource answers "404 Not Found" (lib/api/helpers.rb), unlike
// the "404 Not found" of a record not found.
const premium = (ctx: RequestContext) =>
  GITLAB_TIERS.indexOf(ctx.world.tier) >= GITLAB_TIERS.indexOf("premium");

function projectHolder(ctx: RequestContext) {
  const project = visibleProject(ctx);
  if (!ctx.world.hasRole(project, ctx.caller, "maintainer")) throw gitlabForbidden();
  if (!premium(ctx)) throw gitlabNotFound("Not Found");
  return { holder: projectRuleOf(project), projectId: project.id as number | undefined };
}

function groupHolder(ctx: RequestContext) {
  const group = visibleGroup(ctx, ctx.params.id);
  if (!ctx.world.hasRole(group, ctx.caller, "owner") || !premium(ctx))
    throw gitlabNotFound("Not Found");
  return { holder: groupRuleOf(group), projectId: undefined };
}

/**
 * RE2's refusals, approximated with JavaScript's parser: RE2 has no lookarounds or backreferences
 * and takes inline flags (`(?i)`), which JavaScript does not.
 */
function notRe2(text: string): string | undefined {
  if (/\(\?<?[=!]/.test(text)) return "invalid perl operator: (?=";
  if (/\\[1-9]/.test(text)) return "invalid escape sequence: \\1";
  try {
    new RegExp(text.replace(/\(\?[imsU-]+\)/g, "").replace(/\(\?[imsU-]+:/g, "(?:"));
    return undefined;
  } catch {
    return "missing closing )";
  }
}

/** The fields given, coerced, after the at-least-one and model checks. */
function readFields(ctx: RequestContext): Partial<Record<Field, unknown>> {
  const params = parameters(ctx);
  const given = FIELDS.filter((name) => params[name] !== undefined);
  if (given.length === 0) {
    throw gitlabBadParameter(
      `${FIELDS.join(", ")} are missing, at least one parameter must be provided`,
    );
  }
  const fields: Partial<Record<Field, unknown>> = {};
  const errors: Record<string, string[]> = {};
  for (const name of given) {
    const value = params[name];
    if ((REGEX_FIELDS as readonly string[]).includes(name)) {
      const problem = typeof value === "string" ? notRe2(value) : undefined;
      if (problem !== undefined) errors[name] = [`not valid RE2 syntax: ${problem}`];
      fields[name] = value;
    } else if (name === "max_file_size") {
      const size = grapeInteger(value);
      if (typeof size === "number" && size < 0)
        errors[name] = ["must be greater than or equal to 0"];
      fields[name] = size;
    } else {
      fields[name] = grapeBoolean(value);
    }
  }
  if (Object.keys(errors).length > 0)
    throw new HttpError({ status: 400, body: { message: errors } });
  return fields;
}

function routesFor(
  pattern: string,
  operationPath: string,
  holderOf: (ctx: RequestContext) => {
    holder: { rule?: PushRuleRecord };
    projectId: number | undefined;
  },
  words: { exists: string; missing: string },
): Route[] {
  const shown = (rule: PushRuleRecord, projectId: number | undefined) => pushRule(rule, projectId);
  return [
    {
      method: "GET",
      pattern,
      operation: `GET ${operationPath}`,
      handler: (ctx) => {
        const { holder, projectId } = holderOf(ctx);
        if (holder.rule === undefined) {
          if (projectId === undefined) throw gitlabNotFound("Not Found");
          return ok(null);
        }
        return ok(shown(holder.rule, projectId));
      },
    },
    {
      method: "POST",
      pattern,
      operation: `POST ${operationPath}`,
      handler: (ctx) => {
        const { holder, projectId } = holderOf(ctx);
        const fields = readFields(ctx);
        if (holder.rule !== undefined) throw gitlabError(422, words.exists);
        holder.rule = newRule(ctx.world, new Date(ctx.now()).toISOString(), fields);
        return ok(shown(holder.rule, projectId), 201);
      },
    },
    {
      method: "PUT",
      pattern,
      operation: `PUT ${operationPath}`,
      handler: (ctx) => {
        const { holder, projectId } = holderOf(ctx);
        if (holder.rule === undefined) throw gitlabNotFound(words.missing);
        Object.assign(holder.rule, readFields(ctx));
        return ok(shown(holder.rule, projectId));
      },
    },
    {
      method: "DELETE",
      pattern,
      operation: `DELETE ${operationPath}`,
      handler: (ctx) => {
        const { holder } = holderOf(ctx);
        if (holder.rule === undefined) throw gitlabNotFound(words.missing);
        delete holder.rule;
        return noContent;
      },
    },
  ];
}

export const pushRuleRoutes: Route[] = [
  ...routesFor("/api/v4/projects/:id/push_rule", "/api/v4/projects/{id}/push_rule", projectHolder, {
    exists: "Project push rule exists",
    missing: "Push Rule Not Found",
  }),
  ...routesFor("/api/v4/groups/:id/push_rule", "/api/v4/groups/{id}/push_rule", groupHolder, {
    exists: "Group push rule exists, try updating",
    missing: "Push rule Not Found",
  }),
];
