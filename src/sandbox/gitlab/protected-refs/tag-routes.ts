import {
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  noContent,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { visibleProject } from "../world/access.js";
import type { Project } from "../world/records.js";
import { applyItems, levelItem, readItems, recordNotFound, unprocessable } from "./entries.js";
import { protectedTagsOf, protectionIds } from "./records.js";
import { premium } from "./routes.js";
import { protectedTag } from "./shapes.js";

/**
 * GitLab's "Protected tags API" (doc/api/protected_tags.md, gitlabhq/gitlabhq 0286e4c6): list,
 * get, protect (POST: `create_access_level`, and `allowed_to_create` on Premium, "Premium and
 * Ultimate only") and unprotect (DELETE). There is no update: a protected tag changes only by
 * being unprotected and protected again. Reading takes the Developer role, writing Maintainer.
 */

function project(ctx: RequestContext, minimum: "developer" | "maintainer"): Project {
  const found = visibleProject(ctx);
  if (!ctx.world.hasRole(found, ctx.caller, minimum)) throw gitlabForbidden();
  return found;
}

export const protectedTagRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/protected_tags",
    operation: "GET /api/v4/projects/{id}/protected_tags",
    handler: (ctx) => {
      const found = project(ctx, "developer");
      const isPremium = premium(ctx.world);
      return {
        status: 200,
        body: [...protectedTagsOf(found).values()].map((tag) => protectedTag(tag, isPremium)),
      };
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/protected_tags/:name",
    operation: "GET /api/v4/projects/{id}/protected_tags/{name}",
    handler: (ctx) => {
      const tag = protectedTagsOf(project(ctx, "developer")).get(ctx.params.name ?? "");
      if (tag === undefined) throw gitlabNotFound();
      return ok(protectedTag(tag, premium(ctx.world)));
    },
  },
  {
    /**
     * A name already protected answers 409 "Protected tag '<name>' already exists", as the
     * branches' POST words it; without a level, the Maintainer role ("Default is 40").
     */
    method: "POST",
    pattern: "/api/v4/projects/:id/protected_tags",
    operation: "POST /api/v4/projects/{id}/protected_tags",
    handler: (ctx) => {
      const found = project(ctx, "maintainer");
      const params = parameters(ctx);
      const name = String(params.name);
      const tags = protectedTagsOf(found);
      if (tags.has(name)) throw gitlabError(409, `Protected tag '${name}' already exists`);
      const problems: string[] = [];
      const items = [
        ...levelItem(params.create_access_level),
        ...(premium(ctx.world)
          ? readItems(ctx.world, found, "create", params.allowed_to_create, problems)
          : []),
      ];
      const create = applyItems(
        ctx.world,
        "create",
        [],
        items.length === 0 ? levelItem(40) : items,
        problems,
      );
      if (problems.length > 0) throw unprocessable(problems);
      const tag = { id: protectionIds(ctx.world).ref++, name, create };
      tags.set(name, tag);
      return { status: 201, body: protectedTag(tag, premium(ctx.world)) };
    },
  },
  {
    method: "DELETE",
    pattern: "/api/v4/projects/:id/protected_tags/:name",
    operation: "DELETE /api/v4/projects/{id}/protected_tags/{name}",
    handler: (ctx) => {
      if (!protectedTagsOf(project(ctx, "maintainer")).delete(ctx.params.name ?? ""))
        throw recordNotFound();
      return noContent;
    },
  },
];
