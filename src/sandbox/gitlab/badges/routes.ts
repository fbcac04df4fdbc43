import {
  gitlabBadParameter,
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
import { type Badge, badgeIds, badgesOf } from "./records.js";
import { badge, groupsAbove } from "./shapes.js";

/**
 * GitLab's project and group badges APIs (doc/api/project_badges.md, group_badges.md): a project's
 * listing shows its own badges (`kind: project`) and those of its groups (`kind: group`); a
 * group's, its own. Adding, editing and removing take the Maintainer role (the sandbox's reading of
 * `admin_project` / `admin_group`); a group's badge cannot be edited or removed through a project
 * (the sandbox answers 404, as the badge is not the project's). Both URLs must be http or https
 * once GitLab's placeholders are filled (Badge validates them as URLs; the message is ours).
 */

type Owner = { project: Project } | { group: Group };

function ownerOf(ctx: RequestContext, scope: "projects" | "groups"): Owner {
  return scope === "projects"
    ? { project: visibleProject(ctx) }
    : { group: visibleGroup(ctx, ctx.params.id) };
}

const recordOf = (owner: Owner) => ("project" in owner ? owner.project : owner.group);
const kindOf = (owner: Owner): "project" | "group" => ("project" in owner ? "project" : "group");

function shown(ctx: RequestContext, owner: Owner, value: Badge) {
  return badge(ctx.base, value, kindOf(owner), "project" in owner ? owner.project : undefined);
}

function requireMaintainer(ctx: RequestContext, owner: Owner): void {
  if (!ctx.world.hasRole(recordOf(owner), ctx.caller, "maintainer")) throw gitlabForbidden();
}

/** A URL GitLab's Badge takes: http or https, its placeholders aside. */
function checkUrls(fields: Partial<Badge>): void {
  const errors: Record<string, string[]> = {};
  for (const name of ["link_url", "image_url"] as const) {
    const value = fields[name];
    if (value === undefined) continue;
    const filled = value.replaceAll(/%\{[a-z_]+\}/g, "x");
    if (!/^https?:\/\/\S+$/.test(filled)) {
      errors[name] = ["is blocked: Only allowed schemes are http, https"];
    }
  }
  if (Object.keys(errors).length > 0)
    throw new HttpError({ status: 400, body: { message: errors } });
}

function fieldsOf(ctx: RequestContext): Partial<Badge> {
  const params = parameters(ctx);
  const fields: Partial<Badge> = {};
  for (const name of ["name", "link_url", "image_url"] as const) {
    const value = params[name];
    if (value === undefined) continue;
    if (typeof value !== "string") throw gitlabBadParameter(`${name} is invalid`);
    fields[name] = value;
  }
  return fields;
}

function ownBadge(ctx: RequestContext, owner: Owner): Badge {
  const id = Number(ctx.params.badge_id);
  const found = badgesOf(recordOf(owner)).find((candidate) => candidate.id === id);
  if (found === undefined) throw gitlabNotFound("Badge Not Found");
  return found;
}

function routesOf(scope: "projects" | "groups"): Route[] {
  const base = `/api/v4/${scope}/:id/badges`;
  const template = `/api/v4/${scope}/{id}/badges`;
  return [
    {
      method: "GET",
      pattern: base,
      operation: `GET ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const name = ctx.url.searchParams.get("name");
        const listed: Array<{ value: Badge; kind: "project" | "group" }> = [
          ...badgesOf(recordOf(owner)).map((value) => ({ value, kind: kindOf(owner) })),
          ...("project" in owner
            ? groupsAbove(owner.project).flatMap((group) =>
                badgesOf(group).map((value) => ({ value, kind: "group" as const })),
              )
            : []),
        ].filter((entry) => name === null || entry.value.name === name);
        return gitlabPageReply(ctx, listed, (entry) =>
          badge(ctx.base, entry.value, entry.kind, "project" in owner ? owner.project : undefined),
        );
      },
    },
    {
      method: "POST",
      pattern: base,
      operation: `POST ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        requireMaintainer(ctx, owner);
        const fields = fieldsOf(ctx);
        if (fields.link_url === undefined || fields.image_url === undefined)
          throw gitlabError(400, "link_url and image_url are required");
        checkUrls(fields);
        const created: Badge = {
          id: badgeIds(ctx.world).next++,
          name: fields.name ?? null,
          link_url: fields.link_url,
          image_url: fields.image_url,
        };
        badgesOf(recordOf(owner)).push(created);
        return { status: 201, body: shown(ctx, owner, created) };
      },
    },
    {
      method: "PUT",
      pattern: `${base}/:badge_id`,
      operation: `PUT ${template}/{badge_id}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        requireMaintainer(ctx, owner);
        const found = ownBadge(ctx, owner);
        const fields = fieldsOf(ctx);
        checkUrls(fields);
        Object.assign(found, fields);
        return ok(shown(ctx, owner, found));
      },
    },
    {
      method: "DELETE",
      pattern: `${base}/:badge_id`,
      operation: `DELETE ${template}/{badge_id}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        requireMaintainer(ctx, owner);
        const found = ownBadge(ctx, owner);
        const list = badgesOf(recordOf(owner));
        list.splice(list.indexOf(found), 1);
        return { status: 204, body: undefined };
      },
    },
  ];
}

export const badgeRoutes: Route[] = [...routesOf("projects"), ...routesOf("groups")];
