import { grapeBoolean } from "../grape-values.js";
import {
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  gitlabPageReply,
  HttpError,
  ok,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { visibleGroup, visibleProject } from "../world/access.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";
import { instanceProblemsOf, problemsOf } from "./model.js";
import { type CiVariable, variablesOf } from "./records.js";
import { instanceVariable, variable } from "./shapes.js";

/**
 * GitLab's project-, group- and instance-level CI/CD variables APIs (doc/api/
 * project_level_variables.md, group_level_variables.md; lib/api/ci/variables.rb,
 * lib/api/group_variables.rb):
 * - every route takes a project's Maintainer role (`authorize! :admin_build`) or a group's Owner
 *   role (docs, "CI/CD variables", "For a group": "You must be a group member with the Owner
 *   role"), 403 otherwise;
 * - one variable is found by its key and, with `filter[environment_scope]`, its scope; a key held
 *   in more than one scope without the filter answers 409 "There are multiple variables with
 *   provided parameters. Please use 'filter[environment_scope]'" (VariablesHelpers#find_variable,
 *   `conflict!`), none 404 "404 Variable Not Found" (`not_found!('Variable')`);
 * - a create takes `masked_and_hidden` (GitLab 17.4), an update does not; an update's `key` and
 *   `filter` are not changed (`declared_params.except(:key, :filter)`) and its `value` is optional;
 * - a group's environment scope is Premium: on Free, `environment_scope` and the filter are not
 *   used (EE's `filter_variable_parameters` drops the scope unless the group is licensed for
 *   scoped variables), so a group variable stays in the scope `*`.
 *
 * And the instance-level API (doc/api/instance_level_ci_variables.md, lib/api/admin/ci/
 * variables.rb; every tier, self-managed and Dedicated): `/admin/ci/variables`, administrators
 * only (`authenticated_as_admin!`: 401 without a token, 403 "403 Forbidden" for anyone else); a
 * variable is its key alone (`find_by_key`; no `environment_scope`, no filter, no
 * `masked_and_hidden`: none is declared, and Grape drops what is not), 404 "404 InstanceVariable
 * Not Found" (`not_found!('InstanceVariable')`); its own limits in model.ts.
 */

type Where = "projects" | "groups" | "instance";
type Owner = { project: Project } | { group: Group } | { instance: GitlabWorld };

const recordOf = (owner: Owner) =>
  "project" in owner ? owner.project : "group" in owner ? owner.group : owner.instance;

function ownerOf(ctx: RequestContext, where: Where): Owner {
  if (where === "instance") {
    if (!requireCaller(ctx).admin) throw gitlabForbidden();
    return { instance: ctx.world };
  }
  if (where === "projects") {
    const project = visibleProject(ctx);
    if (!ctx.world.hasRole(project, ctx.caller, "maintainer")) throw gitlabForbidden();
    return { project };
  }
  const group = visibleGroup(ctx, ctx.params.id);
  if (!ctx.world.hasRole(group, ctx.caller, "owner")) throw gitlabForbidden();
  return { group };
}

/** Whether the place uses environment scopes: every project; a group from Premium on. */
function scoped(ctx: RequestContext, owner: Owner): boolean {
  if ("instance" in owner) return false;
  return "project" in owner || ctx.world.tier !== "free";
}

/** `filter[environment_scope]`, from the query (`filter[environment_scope]=…`) or a JSON body. */
function filterScope(ctx: RequestContext): string | undefined {
  const queried = ctx.query.get("filter[environment_scope]");
  if (queried !== null) return queried;
  const filter = ctx.json().filter;
  if (filter !== null && typeof filter === "object" && !Array.isArray(filter)) {
    const scope = (filter as Record<string, unknown>).environment_scope;
    if (typeof scope === "string") return scope;
  }
  return undefined;
}

function found(ctx: RequestContext, owner: Owner): CiVariable {
  const key = ctx.params.key ?? "";
  const scope = scoped(ctx, owner) ? filterScope(ctx) : undefined;
  const matches = variablesOf(recordOf(owner)).filter(
    (candidate) =>
      candidate.key === key && (scope === undefined || candidate.environment_scope === scope),
  );
  if (matches.length > 1) {
    throw gitlabError(
      409,
      "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
    );
  }
  const [only] = matches;
  if (only === undefined) {
    throw gitlabNotFound("instance" in owner ? "InstanceVariable Not Found" : "Variable Not Found");
  }
  return only;
}

/** The fields a request sets, as Grape coerces them (request-parameters.ts checked their types). */
function fieldsOf(ctx: RequestContext, owner: Owner, create: boolean): Partial<CiVariable> {
  const params = parameters(ctx);
  const fields: Partial<CiVariable> = {};
  const text = (name: "key" | "value" | "description" | "environment_scope") => {
    const value = params[name];
    return value === undefined || value === null ? undefined : String(value);
  };
  if (create) {
    const key = text("key");
    // Ci::HasVariable#key= strips the key.
    if (key !== undefined) fields.key = key.trim();
  }
  const value = text("value");
  if (value !== undefined) fields.value = value;
  if (params.description !== undefined) fields.description = text("description") ?? null;
  const scope = text("environment_scope");
  if (scope !== undefined && scoped(ctx, owner)) fields.environment_scope = scope;
  for (const name of ["protected", "masked", "raw"] as const) {
    const flag = grapeBoolean(params[name]);
    if (typeof flag === "boolean") fields[name] = flag;
  }
  if (params.variable_type === "env_var" || params.variable_type === "file") {
    fields.variable_type = params.variable_type;
  }
  if (create && !("instance" in owner) && grapeBoolean(params.masked_and_hidden) === true) {
    fields.masked = true;
    fields.hidden = true;
  }
  return fields;
}

function refuseInvalid(
  owner: Owner,
  candidate: CiVariable,
  all: readonly CiVariable[],
  stored?: CiVariable,
) {
  const check = "instance" in owner ? instanceProblemsOf : problemsOf;
  const problems = check(candidate, all, stored);
  if (Object.keys(problems).length > 0) {
    throw new HttpError({ status: 400, body: { message: problems } });
  }
}

function routesOf(scope: Where): Route[] {
  const base =
    scope === "instance" ? "/api/v4/admin/ci/variables" : `/api/v4/${scope}/:id/variables`;
  const template = scope === "instance" ? base : `/api/v4/${scope}/{id}/variables`;
  const shape = scope === "instance" ? instanceVariable : variable;
  return [
    {
      method: "GET",
      pattern: base,
      operation: `GET ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        return gitlabPageReply(ctx, variablesOf(recordOf(owner)), shape);
      },
    },
    {
      method: "GET",
      pattern: `${base}/:key`,
      operation: `GET ${template}/{key}`,
      handler: (ctx) => ok(shape(found(ctx, ownerOf(ctx, scope)))),
    },
    {
      method: "POST",
      pattern: base,
      operation: `POST ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const all = variablesOf(recordOf(owner));
        const created: CiVariable = {
          key: "",
          value: "",
          variable_type: "env_var",
          protected: false,
          masked: false,
          hidden: false,
          raw: false,
          environment_scope: "*",
          description: null,
          ...fieldsOf(ctx, owner, true),
        };
        refuseInvalid(owner, created, all);
        all.push(created);
        return { status: 201, body: shape(created) };
      },
    },
    {
      method: "PUT",
      pattern: `${base}/:key`,
      operation: `PUT ${template}/{key}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const stored = found(ctx, owner);
        const updated: CiVariable = { ...stored, ...fieldsOf(ctx, owner, false) };
        refuseInvalid(owner, updated, variablesOf(recordOf(owner)), stored);
        Object.assign(stored, updated);
        return ok(shape(stored));
      },
    },
    {
      method: "DELETE",
      pattern: `${base}/:key`,
      operation: `DELETE ${template}/{key}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const stored = found(ctx, owner);
        const all = variablesOf(recordOf(owner));
        all.splice(all.indexOf(stored), 1);
        return { status: 204, body: undefined };
      },
    },
  ];
}

export const variableRoutes: Route[] = [
  ...routesOf("projects"),
  ...routesOf("groups"),
  ...routesOf("instance"),
];
