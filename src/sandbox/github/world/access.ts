import { forbidden, notFound, type RequestContext, requireCaller } from "../http.js";
import type { Account, Organization, Repository } from "./records.js";

/**
 * Who may reach the repository, branch or organization a path names: GitHub hides what a caller
 * may not see with a 404, and refuses what it may see but not change with a 403.
 */

/** The repository named by the path, if the caller may see it; GitHub hides the rest with a 404. */
export function visibleRepository(ctx: RequestContext): Repository {
  const repo = ctx.world.repository(ctx.params.owner ?? "", ctx.params.repo ?? "");
  if (!repo || !ctx.world.can(repo, ctx.caller, "pull")) throw notFound();
  return repo;
}

/**
 * For admin-only operations: 404 if hidden, 401 without credentials, 403 without admin rights. A
 * private repository is hidden from an anonymous caller too: "If you make a request to access a
 * private resource and your request isn't properly authenticated, you will receive a 404 Not Found
 * response" (GitHub's "Troubleshooting the REST API").
 */
export function adminRepository(ctx: RequestContext): { repo: Repository; caller: Account } {
  const repo = visibleRepository(ctx);
  const caller = requireCaller(ctx);
  if (!ctx.world.can(repo, caller, "admin"))
    throw forbidden("Must have admin rights to Repository.");
  return { repo, caller };
}

/**
 * For operations that need write access (labels): 404 if hidden, 401 without credentials, 403 for a
 * caller who may only read or triage.
 */
export function writableRepository(ctx: RequestContext): { repo: Repository; caller: Account } {
  const repo = visibleRepository(ctx);
  const caller = requireCaller(ctx);
  if (!ctx.world.can(repo, caller, "push")) {
    throw forbidden("Must have push access to repository.");
  }
  return { repo, caller };
}

/** A running migration that locks the repository holds back every change to it. */
export function assertUnlocked(ctx: RequestContext, repo: Repository): void {
  if (ctx.world.lockedRepositories.has(repo.id)) {
    throw forbidden("Repository is locked by a migration in progress.");
  }
}

/** The branch a path names (`*branch`), or GitHub's 404. */
export function branchOf(ctx: RequestContext, repo: Repository) {
  const found = repo.branches.get(ctx.params.branch ?? "");
  if (!found) throw notFound("Branch not found");
  return found;
}

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
