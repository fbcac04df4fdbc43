import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  gitlabPageReply,
  idParam,
  isoTime,
  ok,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { type GitlabTier, requireTier } from "../tiers.js";
import { visibleGroup } from "../world/access.js";
import type { Group, User } from "../world/records.js";
import {
  addEpicLink,
  type Epic,
  type EpicLink,
  epicsOf,
  linksOf,
  removeEpicLink,
  storedLink,
} from "./records.js";
import { epic, epicLink, relatedEpic } from "./shapes.js";

/**
 * Epics and their related-epic links (spec endpoint 8), in GitLab v4's shapes. Groups are private:
 * a caller without a role in a group is told it does not exist.
 */

function epicOf(owner: Group, iid: string | undefined): Epic {
  const number = idParam(iid);
  const found = number === undefined ? undefined : epicsOf(owner).get(number);
  if (!found) throw gitlabNotFound("Epic Not Found");
  return found;
}

function linksFrom(ctx: RequestContext, from: Epic, caller: User): EpicLink[] {
  const links = [...(linksOf(ctx.world).byEpic.get(from.id) ?? [])];
  return links
    .filter((link) => {
      const other = link.source.id === from.id ? link.target : link.source;
      return ctx.world.hasRole(other.group, caller, "guest");
    })
    .sort((a, b) => a.id - b.id);
}

function linkedAlready(ctx: RequestContext, a: Epic, b: Epic): boolean {
  for (const link of linksOf(ctx.world).byEpic.get(a.id) ?? []) {
    if (link.source.id === b.id || link.target.id === b.id) return true;
  }
  return false;
}

/**
 * The group of an epic route, found as any group read finds it (404 for one the caller may not
 * see), then refused on a tier below the endpoint's: epics are Premium, related epics Ultimate
 * (tiers.ts).
 */
function groupOnTier(ctx: RequestContext, minimum: GitlabTier): Group {
  const found = visibleGroup(ctx, ctx.params.id);
  requireTier(ctx, minimum);
  return found;
}

const LINK_TYPES = new Set(["relates_to", "blocks", "is_blocked_by"]);

export const epicLinkRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/groups/:id/epics",
    operation: "GET /api/v4/groups/{id}/epics",
    handler: (ctx) => {
      const found = groupOnTier(ctx, "premium");
      const epics = [...epicsOf(found).values()].sort((a, b) => a.iid - b.iid);
      return gitlabPageReply(ctx, epics, (item) => epic(ctx.base, item));
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/groups/:id/epics/:iid",
    operation: "GET /api/v4/groups/{id}/epics/{epic_iid}",
    handler: (ctx) => ok(epic(ctx.base, epicOf(groupOnTier(ctx, "premium"), ctx.params.iid))),
  },
  {
    method: "GET",
    pattern: "/api/v4/groups/:id/epics/:iid/related_epics",
    operation: "GET /api/v4/groups/{id}/epics/{epic_iid}/related_epics",
    handler: (ctx) => {
      // Not paginated: GitLab presents every related epic the caller can read in one answer, with
      // no per_page and no Link or X-Total headers (ee/lib/api/related_epic_links.rb, `present
      // related_epics` without `paginate`).
      const from = epicOf(groupOnTier(ctx, "ultimate"), ctx.params.iid);
      const links = linksFrom(ctx, from, requireCaller(ctx));
      return ok(links.map((link) => relatedEpic(ctx.base, link, from)));
    },
  },
  {
    method: "POST",
    pattern: "/api/v4/groups/:id/epics/:iid/related_epics",
    operation: "POST /api/v4/groups/{id}/epics/{epic_iid}/related_epics",
    handler: (ctx) => {
      const source = epicOf(groupOnTier(ctx, "ultimate"), ctx.params.iid);
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
      const target = epicOf(visibleGroup(ctx, String(targetGroup)), String(targetIid));
      if (target.id === source.id)
        throw gitlabError(400, "400 Bad request - an epic cannot relate to itself");
      if (linkedAlready(ctx, source, target)) throw gitlabError(409, "Epic(s) already assigned");
      const now = isoTime(ctx.now());
      const link: EpicLink = {
        id: linksOf(ctx.world).nextId++,
        ...storedLink(source, target, linkType as Parameters<typeof storedLink>[2]),
        created_at: now,
        updated_at: now,
      };
      addEpicLink(ctx.world, link);
      return ok(epicLink(ctx.base, link), 201);
    },
  },
  {
    method: "DELETE",
    pattern: "/api/v4/groups/:id/epics/:iid/related_epics/:link",
    operation: "DELETE /api/v4/groups/{id}/epics/{epic_iid}/related_epics/{related_epic_link_id}",
    handler: (ctx) => {
      const caller = requireCaller(ctx);
      const from = epicOf(groupOnTier(ctx, "ultimate"), ctx.params.iid);
      const id = idParam(ctx.params.link);
      const link = id === undefined ? undefined : linksOf(ctx.world).byId.get(id);
      if (!link || (link.source.id !== from.id && link.target.id !== from.id)) {
        // GitLab finds the link among the epic's own (`for_source_or_target(epic).find`), and an
        // ActiveRecord::RecordNotFound answers `404 Not found`.
        throw gitlabNotFound();
      }
      // The spec: the caller needs a role (Guest or higher) in both groups of the link.
      for (const side of [link.source, link.target]) {
        if (!ctx.world.hasRole(side.group, caller, "guest")) throw gitlabForbidden();
      }
      removeEpicLink(ctx.world, link);
      return ok(epicLink(ctx.base, link));
    },
  },
];
