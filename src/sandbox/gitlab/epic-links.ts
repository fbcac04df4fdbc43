import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  idParam,
  isoTime,
  ok,
  type RequestContext,
  requireCaller,
} from "../core/http-support.js";
import { paginate } from "../core/pagination.js";
import type { Route } from "../core/router.js";
import { parameters } from "./parameters.js";
import { epic, epicLink, group, relatedEpic } from "./shapes.js";
import { type Account, type Epic, type EpicLink, type Group, storedLink } from "../core/world.js";

/**
 * Groups, epics and their related-epic links (spec endpoint 8), in GitLab v4's shapes. Groups are
 * private: a caller without a role in a group is told it does not exist.
 */

function visibleGroup(ctx: RequestContext, idOrPath: string | undefined): Group {
  const caller = requireCaller(ctx, "gitlab");
  const found = ctx.world.group(idOrPath ?? "");
  if (!found || !ctx.world.hasRole(found, caller, "guest")) throw gitlabNotFound("Group Not Found");
  return found;
}

function epicOf(ctx: RequestContext, owner: Group, iid: string | undefined): Epic {
  const number = idParam(iid);
  const found = number === undefined ? undefined : owner.epics.get(number);
  if (!found) throw gitlabNotFound("Epic Not Found");
  return found;
}

function linksOf(ctx: RequestContext, from: Epic, caller: Account): EpicLink[] {
  const links = [...(ctx.world.linksByEpic.get(from.id) ?? [])];
  return links
    .filter((link) => {
      const other = link.source.id === from.id ? link.target : link.source;
      return ctx.world.hasRole(other.group, caller, "guest");
    })
    .sort((a, b) => a.id - b.id);
}

function linkedAlready(ctx: RequestContext, a: Epic, b: Epic): boolean {
  for (const link of ctx.world.linksByEpic.get(a.id) ?? []) {
    if (link.source.id === b.id || link.target.id === b.id) return true;
  }
  return false;
}

const LINK_TYPES = new Set(["relates_to", "blocks", "is_blocked_by"]);

export const epicLinkRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/groups/:id",
    handler: (ctx) => ok(group(ctx.base, visibleGroup(ctx, ctx.params.id))),
  },
  {
    method: "GET",
    pattern: "/api/v4/groups/:id/epics",
    handler: (ctx) => {
      const found = visibleGroup(ctx, ctx.params.id);
      const epics = [...found.epics.values()].sort((a, b) => a.iid - b.iid);
      const page = paginate(ctx, epics, "gitlab");
      return {
        status: 200,
        body: page.items.map((item) => epic(ctx.base, item)),
        headers: page.headers,
      };
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/groups/:id/epics/:iid",
    handler: (ctx) =>
      ok(epic(ctx.base, epicOf(ctx, visibleGroup(ctx, ctx.params.id), ctx.params.iid))),
  },
  {
    method: "GET",
    pattern: "/api/v4/groups/:id/epics/:iid/related_epics",
    handler: (ctx) => {
      // Not paginated: GitLab presents every related epic the caller can read in one answer, with
      // no per_page and no Link or X-Total headers (ee/lib/api/related_epic_links.rb, `present
      // related_epics` without `paginate`).
      const from = epicOf(ctx, visibleGroup(ctx, ctx.params.id), ctx.params.iid);
      const links = linksOf(ctx, from, requireCaller(ctx, "gitlab"));
      return ok(links.map((link) => relatedEpic(ctx.base, link, from)));
    },
  },
  {
    method: "POST",
    pattern: "/api/v4/groups/:id/epics/:iid/related_epics",
    handler: (ctx) => {
      const source = epicOf(ctx, visibleGroup(ctx, ctx.params.id), ctx.params.iid);
      const params = parameters(ctx);
      const { target_group_id: targetGroup, target_epic_iid: targetIid } = params;
      const linkType = params.link_type ?? "relates_to";
      if (typeof targetGroup !== "string" && typeof targetGroup !== "number") {
        throw gitlabBadParameter("target_group_id is missing");
      }
      if (typeof targetIid !== "string" && typeof targetIid !== "number") {
        throw gitlabBadParameter("target_epic_iid is missing");
      }
      if (typeof linkType !== "string" || !LINK_TYPES.has(linkType)) {
        throw gitlabBadParameter("link_type does not have a valid value");
      }
      const target = epicOf(ctx, visibleGroup(ctx, String(targetGroup)), String(targetIid));
      if (target.id === source.id)
        throw gitlabError(400, "400 Bad request - an epic cannot relate to itself");
      if (linkedAlready(ctx, source, target)) throw gitlabError(409, "Epic(s) already assigned");
      const now = isoTime(ctx.now());
      const link: EpicLink = {
        id: ctx.world.nextId.epicLink++,
        ...storedLink(source, target, linkType as Parameters<typeof storedLink>[2]),
        created_at: now,
        updated_at: now,
      };
      ctx.world.addEpicLink(link);
      return ok(epicLink(ctx.base, link), 201);
    },
  },
  {
    method: "DELETE",
    pattern: "/api/v4/groups/:id/epics/:iid/related_epics/:link",
    operation: "DELETE /api/v4/groups/{id}/epics/{epic_iid}/related_epics/{related_epic_link_id}",
    handler: (ctx) => {
      const caller = requireCaller(ctx, "gitlab");
      const from = epicOf(ctx, visibleGroup(ctx, ctx.params.id), ctx.params.iid);
      const id = idParam(ctx.params.link);
      const link = id === undefined ? undefined : ctx.world.epicLinks.get(id);
      if (!link || (link.source.id !== from.id && link.target.id !== from.id)) {
        // GitLab finds the link among the epic's own (`for_source_or_target(epic).find`), and an
        // ActiveRecord::RecordNotFound answers `404 Not found`.
        throw gitlabNotFound();
      }
      // The spec: the caller needs a role (Guest or higher) in both groups of the link.
      for (const side of [link.source, link.target]) {
        if (!ctx.world.hasRole(side.group, caller, "guest")) throw gitlabForbidden();
      }
      ctx.world.removeEpicLink(link);
      return ok(epicLink(ctx.base, link));
    },
  },
];
