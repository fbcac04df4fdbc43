import type { Shared, Variable } from "./records.js";
import { githubError, isoTime, noContent, notFound, ok, type RequestContext } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { minimalRepository } from "../world/shapes.js";
import { nameProblem, pathName } from "./names.js";
import { PLACES, type Place, repositoryPage, selectedRepositories } from "./places.js";

/**
 * Actions variables of repositories, environments and organizations (GitHub's
 * `…/actions/variables` and `…/environments/{environment_name}/variables`): list (30 a page at most,
 * the operations' `variables-per-page`), create, read, update, delete, and an organization
 * variable's selected repositories. docs/service-decisions.md has the rules.
 */

/** GitHub's limits: "Configuration variables can store up to 48 KB of data each", and counts. */
const MAX_VALUE_BYTES = 48 * 1024;
const MAX_VARIABLES = { repository: 500, environment: 100, organization: 1000 } as const;
const MAX_PER_PAGE = 30;

type Kind = keyof typeof MAX_VARIABLES;

function kindOf(place: Place): Kind {
  return place.org
    ? "organization"
    : place.keyPlace.startsWith("environment/")
      ? "environment"
      : "repository";
}

function variableShape(place: Place, variable: Variable): Record<string, unknown> {
  return {
    name: variable.name,
    value: variable.value,
    created_at: variable.created_at,
    updated_at: variable.updated_at,
    ...(variable.shared
      ? {
          visibility: variable.shared.visibility,
          ...(variable.shared.visibility === "selected"
            ? {
                selected_repositories_url: `${place.url}/actions/variables/${variable.name}/repositories`,
              }
            : {}),
        }
      : {}),
  };
}

function variableOf(ctx: RequestContext, place: Place): Variable {
  const found = place.store.variables.get(pathName(ctx, "name"));
  if (found === undefined) throw notFound();
  return found;
}

/** The sharing an organization variable's body asks for, checked against the organization. */
function sharedOf(
  ctx: RequestContext,
  place: Place,
  body: Record<string, unknown>,
  current: Shared | undefined,
): Shared | undefined {
  if (!place.org) return undefined;
  const visibility = (body.visibility as Shared["visibility"] | undefined) ?? current?.visibility;
  if (visibility === undefined) throw ctx.invalid(["visibility is required"], "Variable");
  const ids = body.selected_repository_ids as unknown[] | undefined;
  const selected =
    ids === undefined
      ? (current?.selected ?? new Set<number>())
      : selectedRepositories(ctx, place.org, ids, "Variable");
  return { visibility, selected: visibility === "selected" ? selected : new Set() };
}

function checkValue(ctx: RequestContext, value: unknown): void {
  if (typeof value === "string" && Buffer.byteLength(value) > MAX_VALUE_BYTES) {
    throw ctx.invalid([`value must be at most ${MAX_VALUE_BYTES} bytes`], "Variable");
  }
  if (value === "") throw ctx.invalid(["value can't be blank"], "Variable");
}

function routesAt(
  prefix: string,
  template: string,
  place: (ctx: RequestContext) => Place,
): Route[] {
  const under = prefix.startsWith("/orgs") || !prefix.includes("environments") ? "/actions" : "";
  const base = `${prefix}${under}/variables`;
  const operation = `${template}${under}/variables`;
  return [
    {
      method: "GET",
      pattern: base,
      handler: (ctx) => {
        const at = place(ctx);
        const all = [...at.store.variables.values()].sort((a, b) => a.name.localeCompare(b.name));
        const wanted = Number(ctx.query.get("per_page") ?? "10");
        if (Number.isInteger(wanted) && wanted > MAX_PER_PAGE) {
          ctx.query.set("per_page", String(MAX_PER_PAGE));
        }
        const page = paginate(ctx, all);
        return {
          status: 200,
          body: {
            total_count: all.length,
            variables: page.items.map((item) => variableShape(at, item)),
          },
          headers: page.headers,
        };
      },
    },
    {
      method: "POST",
      pattern: base,
      operation: `POST ${operation}`,
      handler: (ctx) => {
        const at = place(ctx);
        const body = ctx.json();
        const name = String(body.name);
        const problem = nameProblem(name);
        if (problem !== undefined) throw ctx.invalid([problem], "Variable");
        checkValue(ctx, body.value);
        if (at.store.variables.has(name.toUpperCase())) {
          throw githubError(409, "Already exists - Variable already exists");
        }
        const limit = MAX_VARIABLES[kindOf(at)];
        if (at.store.variables.size >= limit) {
          throw ctx.invalid([`a ${kindOf(at)} can have at most ${limit} variables`], "Variable");
        }
        const now = isoTime(ctx.now());
        const shared = sharedOf(ctx, at, body, undefined);
        at.store.variables.set(name.toUpperCase(), {
          name: name.toUpperCase(),
          value: String(body.value),
          created_at: now,
          updated_at: now,
          ...(shared ? { shared } : {}),
        });
        return ok({}, 201);
      },
    },
    {
      method: "GET",
      pattern: `${base}/:name`,
      handler: (ctx) => {
        const at = place(ctx);
        return ok(variableShape(at, variableOf(ctx, at)));
      },
    },
    {
      method: "PATCH",
      pattern: `${base}/:name`,
      operation: `PATCH ${operation}/{name}`,
      handler: (ctx) => {
        const at = place(ctx);
        const current = variableOf(ctx, at);
        const body = ctx.json();
        if (body.value !== undefined) checkValue(ctx, body.value);
        const renamed = body.name === undefined ? current.name : String(body.name).toUpperCase();
        if (renamed !== current.name) {
          const problem = nameProblem(renamed);
          if (problem !== undefined) throw ctx.invalid([problem], "Variable");
          if (at.store.variables.has(renamed)) {
            throw githubError(409, "Already exists - Variable already exists");
          }
        }
        const shared = sharedOf(ctx, at, body, current.shared);
        at.store.variables.delete(current.name);
        at.store.variables.set(renamed, {
          ...current,
          name: renamed,
          value: body.value === undefined ? current.value : String(body.value),
          updated_at: isoTime(ctx.now()),
          ...(shared ? { shared } : {}),
        });
        return noContent;
      },
    },
    {
      method: "DELETE",
      pattern: `${base}/:name`,
      operation: `DELETE ${operation}/{name}`,
      handler: (ctx) => {
        const at = place(ctx);
        at.store.variables.delete(variableOf(ctx, at).name);
        return noContent;
      },
    },
  ];
}

/**
 * The repositories an organization variable or secret is shared with. GitHub answers 409 when its
 * visibility is not `selected` (the operations' published 409, "Response when the visibility of the
 * variable is not set to `selected`").
 */
export function sharedRepositoryRoutes(
  base: string,
  operation: string,
  find: (ctx: RequestContext, place: Place) => { shared?: Shared; updated_at: string },
  resource: string,
): Route[] {
  const sharedOf = (ctx: RequestContext, place: Place) => {
    const item = find(ctx, place);
    if (item.shared?.visibility !== "selected") {
      throw githubError(
        409,
        `The visibility of the ${resource.toLowerCase()} is not set to selected`,
      );
    }
    return { item, shared: item.shared };
  };
  const orgPlace = PLACES[2].place;
  return [
    {
      method: "GET",
      pattern: `${base}/repositories`,
      handler: (ctx) => {
        const at = orgPlace(ctx);
        const { shared } = sharedOf(ctx, at);
        return repositoryPage(ctx, shared.selected, minimalRepository);
      },
    },
    {
      method: "PUT",
      pattern: `${base}/repositories`,
      operation: `PUT ${operation}/repositories`,
      handler: (ctx) => {
        const at = orgPlace(ctx);
        const { item, shared } = sharedOf(ctx, at);
        const body = ctx.json();
        shared.selected = selectedRepositories(
          ctx,
          at.org!,
          body.selected_repository_ids as unknown[],
          resource,
        );
        item.updated_at = isoTime(ctx.now());
        return noContent;
      },
    },
  ];
}

export const variableRoutes: Route[] = [
  ...PLACES.flatMap(({ prefix, template, place }) => routesAt(prefix, template, place)),
  ...sharedRepositoryRoutes(
    "/orgs/:org/actions/variables/:name",
    "/orgs/{org}/actions/variables/{name}",
    (ctx, place) => variableOf(ctx, place),
    "Variable",
  ),
];
