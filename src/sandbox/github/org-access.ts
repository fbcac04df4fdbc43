import { notFound, type RequestContext, requireCaller } from "./http.js";
import type { Organization } from "./world/records.js";

/**
 * The organization named by the path, for its members and owners, and for an installation on it
 * (whose App permissions the request pipeline checks); everyone else is told it is not there.
 */
export function memberOrganization(ctx: RequestContext): Organization {
  const caller = requireCaller(ctx);
  const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
  if (org === undefined) throw notFound();
  if (!ctx.world.administers(org, caller) && !org.members.has(caller.id)) throw notFound();
  return org;
}

/** The organization named by the path, for those who administer it only; 404 to everyone else. */
export function administeredOrganization(ctx: RequestContext): Organization {
  const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
  if (org === undefined || !ctx.world.administers(org, requireCaller(ctx))) throw notFound();
  return org;
}
