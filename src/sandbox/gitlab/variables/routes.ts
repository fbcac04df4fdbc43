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
  type Route,
} from "../http.js";
import { visibleGroup, visibleProject } from "../world/access.js";
import type { Group, Project } from "../world/records.js";
import { problemsOf } from "./model.js";
import { type CiVariable, variablesOf } from "./records.js";
import { variable } from "./shapes.js";

/**
 * GitLab's project- and group-level CI/CD variables APIs (doc/api/project_level_variables.md,
 * group_level_variables.md; lib/api/ci/variables.rb, lib/api/group_variables.rb):
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
 */

type Owner = { project: Project } | { group: Group };

const recordOf = (owner: Owner) => ("project" in owner ? owner.project : owner.group);

function ownerOf(ctx: RequestContext, scope: "projects" | "groups"): Owner {
  const owner: Owner =
    scope === "projects"
      ? { project: visibleProject(ctx) }
      : { group: visibleGroup(ctx, ctx.params.id) };
  const needed = "project" in owner ? "maintainer" : "owner";
  if (!ctx.world.hasRole(recordOf(owner), ctx.caller, needed)) throw gitlabForbidden();
  return owner;
}

/** Whether the place uses environment scopes: every project; a group from Premium on. */
function scoped(ctx: RequestContext, owner: Owner): boolean {
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
  if (only === undefined) throw gitlabNotFound("Variable Not Found");
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
  if (create && grapeBoolean(params.masked_and_hidden) === true) {
    fields.masked = true;
    fields.hidden = true;
  }
  return fields;
}

function refuseInvalid(candidate: CiVariable, all: readonly CiVariable[], stored?: CiVariable) {
  const problems = problemsOf(candidate, all, stored);
  if (Object.keys(problems).length > 0) {
    throw new HttpError({ status: 400, body: { message: problems } });
  }
}

function routesOf(scope: "projects" | "groups"): Route[] {
  const base = `/api/v4/${scope}/:id/variables`;
  const template = `/api/v4/${scope}/{id}/variables`;
  return [
    {
      method: "GET",
      pattern: base,
      operation: `GET ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        return gitlabPageReply(ctx, variablesOf(recordOf(owner)), variable);
      },
    },
    {
      method: "GET",
      pattern: `${base}/:key`,
      operation: `GET ${template}/{key}`,
      handler: (ctx) => ok(variable(found(ctx, ownerOf(ctx, scope)))),
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
        refuseInvalid(created, all);
        all.push(created);
        return { status: 201, body: variable(created) };
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
        refuseInvalid(updated, variablesOf(recordOf(owner)), stored);
        Object.assign(stored, updated);
        return ok(variable(stored));
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

export const variableRoutes: Route[] = [...routesOf("projects"), ...routesOf("groups")];
