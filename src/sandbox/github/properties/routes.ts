import {
  definitionProblems,
  MAX_DEFINITIONS,
  PROPERTY_NAME,
  repositoryValues,
  setValues,
} from "./definitions.js";
import { forbidden, noContent, notFound, ok, type RequestContext, requireCaller } from "../http.js";
import { memberOrganization } from "../world/access.js";
import { paginate } from "../../core/pagination.js";
import { adminRepository, visibleRepository } from "../world/access.js";
import type { Route } from "../http.js";
import type { Organization, Repository } from "../world/records.js";
import { type PropertyDefinition, type PropertyValue, valuesOf, definitionsOf } from "./records.js";

/**
 * Custom properties of an organization's repositories: the definitions (`/orgs/{org}/properties/
 * schema`) and the values (`/orgs/{org}/properties/values`, `/repos/{owner}/{repo}/properties/
 * values`), in the spec's shapes. "Organization members can read these properties" (the spec);
 * defining them and setting values organization-wide is for owners.
 */

/** "A maximum of 30 repositories can be updated in a single request" (the spec, PATCH values). */
const MAX_REPOSITORIES_PER_PATCH = 30;

function ownerOrganization(ctx: RequestContext): Organization {
  const caller = requireCaller(ctx);
  const org = memberOrganization(ctx);
  if (!ctx.world.administers(org, caller)) {
    throw forbidden("Must be an owner of the organization.");
  }
  return org;
}

function definitionBody(ctx: RequestContext, org: Organization, definition: PropertyDefinition) {
  return {
    property_name: definition.property_name,
    url: `${ctx.base}/orgs/${org.account.login}/properties/schema/${encodeURIComponent(definition.property_name)}`,
    source_type: "organization",
    value_type: definition.value_type,
    required: definition.required,
    default_value: definition.default_value,
    description: definition.description,
    allowed_values: definition.allowed_values,
    values_editable_by: definition.values_editable_by,
    require_explicit_values: definition.require_explicit_values,
  };
}

function definitionOf(ctx: RequestContext, org: Organization): PropertyDefinition {
  const found = definitionsOf(org).get((ctx.params.name ?? "").toLowerCase());
  if (found === undefined) throw notFound();
  return found;
}

const VALUE_TYPES = ["string", "single_select", "multi_select", "true_false", "url"] as const;
const EDITORS = ["org_actors", "org_and_repo_actors"] as const;

function isValue(value: unknown): value is PropertyValue {
  return (
    typeof value === "string" ||
    (Array.isArray(value) && value.every((item) => typeof item === "string"))
  );
}

/**
 * A PUT body as a whole definition: "Missing optional values will fall back to default values,
 * previous values will be overwritten" (the spec, PATCH schema; PUT replaces the same way).
 */
function definitionFromBody(
  ctx: RequestContext,
  name: string,
  body: Record<string, unknown>,
): PropertyDefinition {
  const errors: string[] = [];
  const { value_type: type, required = false, default_value: fallback = null } = body;
  const { description = null, allowed_values: allowed = null } = body;
  const editors = body.values_editable_by ?? "org_actors";
  const explicit = body.require_explicit_values ?? false;
  if (typeof explicit !== "boolean") errors.push("require_explicit_values must be a boolean");
  if (!VALUE_TYPES.includes(type as (typeof VALUE_TYPES)[number])) {
    errors.push(`value_type must be one of ${VALUE_TYPES.join(", ")}`);
  }
  if (typeof required !== "boolean") errors.push("required must be a boolean");
  if (fallback !== null && !isValue(fallback)) {
    errors.push("default_value must be a string, a list of strings or null");
  }
  if (description !== null && typeof description !== "string") {
    errors.push("description must be a string or null");
  }
  if (
    allowed !== null &&
    !(Array.isArray(allowed) && allowed.every((v) => typeof v === "string"))
  ) {
    errors.push("allowed_values must be a list of strings or null");
  }
  if (!EDITORS.includes(editors as (typeof EDITORS)[number])) {
    errors.push(`values_editable_by must be one of ${EDITORS.join(", ")}`);
  }
  if (errors.length > 0) throw ctx.invalid(errors, "CustomProperty");
  const definition: PropertyDefinition = {
    property_name: name,
    value_type: type as PropertyDefinition["value_type"],
    required: required as boolean,
    default_value: fallback as PropertyValue | null,
    description: description as string | null,
    allowed_values: allowed as string[] | null,
    values_editable_by: editors as PropertyDefinition["values_editable_by"],
    require_explicit_values: explicit as boolean,
  };
  const problems = definitionProblems(definition);
  if (problems.length > 0) throw ctx.invalid(problems, "CustomProperty");
  return definition;
}

/** `properties: [{property_name, value}]` of a PATCH body; null unsets a value. */
function valuesFromBody(ctx: RequestContext, body: Record<string, unknown>) {
  const list = body.properties;
  const shaped =
    Array.isArray(list) &&
    list.every(
      (item) =>
        typeof item === "object" &&
        item !== null &&
        typeof (item as Record<string, unknown>).property_name === "string" &&
        ((item as Record<string, unknown>).value === null ||
          isValue((item as Record<string, unknown>).value)),
    );
  if (!shaped) {
    throw ctx.invalid(
      [
        "properties must be a list of {property_name, value} with a string, a list of strings or null",
      ],
      "CustomProperty",
    );
  }
  return list as Array<{ property_name: string; value: PropertyValue | null }>;
}

/** The organization's repositories the caller may see, in listing order. */
function visibleRepositories(ctx: RequestContext, org: Organization): Repository[] {
  const all = ctx.world.repositoriesByOwner.get(org.account.login.toLowerCase()) ?? [];
  return ctx.world.seesAllOf(org, ctx.caller)
    ? all
    : all.filter((repo) => ctx.world.can(repo, ctx.caller, "pull"));
}

export const propertyRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/orgs/:org/properties/schema",
    handler: (ctx) => {
      const org = memberOrganization(ctx);
      return ok([...definitionsOf(org).values()].map((item) => definitionBody(ctx, org, item)));
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/properties/schema/:name",
    handler: (ctx) => {
      const org = memberOrganization(ctx);
      return ok(definitionBody(ctx, org, definitionOf(ctx, org)));
    },
  },
  {
    method: "PUT",
    pattern: "/orgs/:org/properties/schema/:name",
    operation: "PUT /orgs/{org}/properties/schema/{custom_property_name}",
    handler: (ctx) => {
      const org = ownerOrganization(ctx);
      const name = ctx.params.name ?? "";
      if (!PROPERTY_NAME.test(name)) {
        throw ctx.invalid([`property_name '${name}' is not a valid name`], "CustomProperty");
      }
      const key = name.toLowerCase();
      if (!definitionsOf(org).has(key) && definitionsOf(org).size >= MAX_DEFINITIONS) {
        throw ctx.invalid(
          [`an organization has at most ${MAX_DEFINITIONS} custom properties`],
          "CustomProperty",
        );
      }
      const definition = definitionFromBody(
        ctx,
        definitionsOf(org).get(key)?.property_name ?? name,
        ctx.json(),
      );
      definitionsOf(org).set(key, definition);
      return ok(definitionBody(ctx, org, definition));
    },
  },
  {
    method: "DELETE",
    pattern: "/orgs/:org/properties/schema/:name",
    operation: "DELETE /orgs/{org}/properties/schema/{custom_property_name}",
    handler: (ctx) => {
      const org = ownerOrganization(ctx);
      const key = definitionOf(ctx, org).property_name.toLowerCase();
      definitionsOf(org).delete(key);
      for (const repo of ctx.world.repositoriesByOwner.get(org.account.login.toLowerCase()) ?? []) {
        valuesOf(repo).delete(key);
      }
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/properties/values",
    handler: (ctx) => {
      const org = memberOrganization(ctx);
      // A search query over repositories needs the search engine the sandbox does not have.
      if (ctx.query.has("repository_query")) {
        throw ctx.invalid(["repository_query is not supported by the sandbox"], "CustomProperty");
      }
      const page = paginate(ctx, visibleRepositories(ctx, org));
      return {
        status: 200,
        body: page.items.map((repo) => ({
          repository_id: repo.id,
          repository_name: repo.name,
          repository_full_name: `${repo.owner.login}/${repo.name}`,
          properties: repositoryValues(org, repo),
        })),
        headers: page.headers,
      };
    },
  },
  {
    method: "PATCH",
    pattern: "/orgs/:org/properties/values",
    operation: "PATCH /orgs/{org}/properties/values",
    handler: (ctx) => {
      const org = ownerOrganization(ctx);
      const body = ctx.json();
      const names = body.repository_names;
      if (
        !Array.isArray(names) ||
        names.length === 0 ||
        names.length > MAX_REPOSITORIES_PER_PATCH ||
        !names.every((name) => typeof name === "string")
      ) {
        throw ctx.invalid(
          [`repository_names must list 1 to ${MAX_REPOSITORIES_PER_PATCH} repository names`],
          "CustomProperty",
        );
      }
      const properties = valuesFromBody(ctx, body);
      const repos = (names as string[]).map((name) => {
        const repo = ctx.world.repository(org.account.login, name);
        if (repo === undefined) {
          throw ctx.invalid(
            [`'${name}' is not a repository of ${org.account.login}`],
            "CustomProperty",
          );
        }
        return repo;
      });
      const problems = setValues(org, repos, properties);
      if (problems.length > 0) throw ctx.invalid(problems, "CustomProperty");
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/properties/values",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      return ok(repositoryValues(repo.org, repo));
    },
  },
  {
    method: "PATCH",
    pattern: "/repos/:owner/:repo/properties/values",
    operation: "PATCH /repos/{owner}/{repo}/properties/values",
    handler: (ctx) => {
      const { repo, caller } = adminRepository(ctx);
      if (repo.org === null) {
        throw ctx.invalid(
          ["custom properties belong to repositories of organizations"],
          "CustomProperty",
        );
      }
      const org = repo.org;
      const properties = valuesFromBody(ctx, ctx.json());
      // "Allow repository actors to set this property": without it, only the organization's
      // owners set the value (GitHub docs, custom properties).
      const owner = org.owners.has(caller.id) || caller.site_admin;
      for (const { property_name: name } of properties) {
        const editors = definitionsOf(org).get(name.toLowerCase())?.values_editable_by;
        if (!owner && editors === "org_actors") {
          throw forbidden(`Only owners of ${org.account.login} may set ${name}.`);
        }
      }
      const problems = setValues(org, [repo], properties);
      if (problems.length > 0) throw ctx.invalid(problems, "CustomProperty");
      return noContent;
    },
  },
];
