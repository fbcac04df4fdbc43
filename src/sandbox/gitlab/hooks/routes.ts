import {
  gitlabForbidden,
  gitlabNotFound,
  gitlabPageReply,
  isoTime,
  noContent,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { requireTier } from "../tiers.js";
import { visibleGroup, visibleProject } from "../world/access.js";
import type { Group, Project } from "../world/records.js";
import { deliverTest } from "./delivery.js";
import { created, edited } from "./model.js";
import { type Hook, hookIds, hooksOf } from "./records.js";
import { eventsOf, hookShape, type HookScope } from "./shapes.js";

/**
 * GitLab's project and group webhooks APIs (doc/api/project_webhooks.md, group_webhooks.md;
 * lib/api/project_hooks.rb, ee's lib/api/group_hooks.rb). Every route takes the Maintainer role on
 * a project and the Owner role on a group ("You must be an administrator or have at least the
 * Maintainer role for the project"; "… the Owner role for the group"), reads included
 * (`read_web_hook`); a caller without it is answered 403. Group hooks are Premium: on Free the
 * sandbox answers 403 once the group is found, as GitLab's licensed `group_webhooks` feature does
 * (tiers.ts). A hook of another project or group, or none, is `404 Not found`
 * (`hook_scope.find`, ActiveRecord::RecordNotFound).
 */

type Owner = { project: Project } | { group: Group };

function ownerOf(ctx: RequestContext, scope: HookScope): Owner {
  if (scope === "projects") {
    const project = visibleProject(ctx);
    if (!ctx.world.hasRole(project, ctx.caller, "maintainer")) throw gitlabForbidden();
    return { project };
  }
  const group = visibleGroup(ctx, ctx.params.id);
  requireTier(ctx, "premium");
  if (!ctx.world.hasRole(group, ctx.caller, "owner")) throw gitlabForbidden();
  return { group };
}

const recordOf = (owner: Owner) => ("project" in owner ? owner.project : owner.group);

function hookOf(ctx: RequestContext, owner: Owner): Hook {
  const id = Number(ctx.params.hook_id);
  const found = hooksOf(recordOf(owner)).find((hook) => hook.id === id);
  if (found === undefined) throw gitlabNotFound("Not found");
  return found;
}

function routesOf(scope: HookScope): Route[] {
  const base = `/api/v4/${scope}/:id/hooks`;
  const template = `/api/v4/${scope}/{id}/hooks`;
  const shown = (owner: Owner, hook: Hook, listing = false) =>
    hookShape(hook, scope, recordOf(owner).id, listing && scope === "projects");
  return [
    {
      method: "GET",
      pattern: base,
      operation: `GET ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        return gitlabPageReply(ctx, hooksOf(recordOf(owner)), (hook) => shown(owner, hook, true));
      },
    },
    {
      method: "POST",
      pattern: base,
      operation: `POST ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const ids = hookIds(ctx.world);
        const hook = created(ids.next, isoTime(ctx.now()), parameters(ctx), eventsOf(scope));
        ids.next += 1;
        hooksOf(recordOf(owner)).push(hook);
        return { status: 201, body: shown(owner, hook) };
      },
    },
    {
      method: "GET",
      pattern: `${base}/:hook_id`,
      operation: `GET ${template}/{hook_id}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        return ok(shown(owner, hookOf(ctx, owner)));
      },
    },
    {
      method: "PUT",
      pattern: `${base}/:hook_id`,
      operation: `PUT ${template}/{hook_id}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const hook = hookOf(ctx, owner);
        edited(hook, parameters(ctx), eventsOf(scope));
        return ok(shown(owner, hook));
      },
    },
    {
      method: "DELETE",
      pattern: `${base}/:hook_id`,
      operation: `DELETE ${template}/{hook_id}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const hook = hookOf(ctx, owner);
        const list = hooksOf(recordOf(owner));
        list.splice(list.indexOf(hook), 1);
        return noContent;
      },
    },
    {
      // API::Hooks::CustomHeaders: `not_found!('Custom header')` for a key the hook lacks.
      method: "DELETE",
      pattern: `${base}/:hook_id/custom_headers/:key`,
      operation: `DELETE ${template}/{hook_id}/custom_headers/{key}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const hook = hookOf(ctx, owner);
        if (!hook.custom_headers.delete(ctx.params.key ?? "")) {
          throw gitlabNotFound("Custom header Not Found");
        }
        return noContent;
      },
    },
    {
      method: "POST",
      pattern: `${base}/:hook_id/test/:trigger`,
      operation: `POST ${template}/{hook_id}/test/{trigger}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        deliverTest(hookOf(ctx, owner), ctx.params.trigger ?? "", ctx.base);
        return { status: 201, body: { message: "201 Created" } };
      },
    },
  ];
}

export const hookRoutes: Route[] = [...routesOf("projects"), ...routesOf("groups")];
