import { noContent, notFound, ok, type RequestContext } from "./http-support.js";
import { paginate } from "./pagination.js";
import {
  isWildcardBranch,
  PROTECTION_OPERATION,
  protectedBranch,
  protectionFromBody,
} from "./protection.js";
import { adminRepository, assertUnlocked, visibleRepository } from "./repo-access.js";
import type { Route } from "./router.js";
import { branch, invitation, minimalRepository, repository } from "./shapes.js";
import type { Account, Repository } from "./world.js";

function branchOf(ctx: RequestContext, repo: Repository) {
  const found = repo.branches.get(ctx.params.branch ?? "");
  if (!found) throw notFound("Branch not found");
  return found;
}

/** Repositories of an account the caller can see; a plain slice when it can see them all. */
function listRepositories(ctx: RequestContext, account: Account | undefined) {
  if (!account) throw notFound();
  const all = ctx.world.repositoriesByOwner.get(account.login.toLowerCase()) ?? [];
  const org = ctx.world.organizations.get(account.login.toLowerCase());
  const visible =
    (org && ctx.world.seesAllOf(org, ctx.caller)) || ctx.caller?.id === account.id
      ? all
      : all.filter((repo) => ctx.world.can(repo, ctx.caller, "pull"));
  const page = paginate(ctx, visible, "github");
  return {
    status: 200,
    body: page.items.map((repo) => minimalRepository(ctx.base, ctx.world, repo, ctx.caller)),
    headers: page.headers,
  };
}

export const repositoryRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo",
    handler: (ctx) => ok(repository(ctx.base, ctx.world, visibleRepository(ctx), ctx.caller)),
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/branches",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const names = [...repo.branches.keys()].sort();
      const page = paginate(ctx, names, "github");
      return {
        status: 200,
        body: page.items.map((name) => branch(ctx.base, repo, name)),
        headers: page.headers,
      };
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/branches/*branch/protection",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const found = branchOf(ctx, repo);
      if (!found.protection) throw notFound("Branch not protected");
      return ok(protectedBranch(ctx.base, repo, found.name, found.protection));
    },
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/branches/*branch/protection",
    operation: PROTECTION_OPERATION,
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      if (isWildcardBranch(ctx.params.branch ?? "")) {
        throw ctx.invalid(
          [
            "branch: wildcard characters are not allowed; use the GraphQL API to protect branches by pattern",
          ],
          "ProtectedBranch",
        );
      }
      const found = branchOf(ctx, repo);
      assertUnlocked(ctx, repo);
      const signatures = found.protection?.required_signatures ?? false;
      const result = protectionFromBody(ctx.world, repo, ctx.json(), signatures);
      if ("errors" in result) throw ctx.invalid(result.errors, "ProtectedBranch");
      found.protection = result.protection;
      return ok(protectedBranch(ctx.base, repo, found.name, result.protection));
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/branches/*branch/protection",
    operation: "DELETE /repos/{owner}/{repo}/branches/{branch}/protection",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const found = branchOf(ctx, repo);
      if (!found.protection) throw notFound("Branch not protected");
      assertUnlocked(ctx, repo);
      found.protection = null;
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/branches/*branch",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      return ok(branch(ctx.base, repo, branchOf(ctx, repo).name));
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/invitations",
    handler: (ctx) => {
      const { repo, caller } = adminRepository(ctx);
      const all = [...repo.invitations.values()].sort((a, b) => a.id - b.id);
      const page = paginate(ctx, all, "github");
      return {
        status: 200,
        body: page.items.map((item) => invitation(ctx.base, ctx.world, repo, item, caller)),
        headers: page.headers,
      };
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/invitations/:id",
    operation: "DELETE /repos/{owner}/{repo}/invitations/{invitation_id}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const id = Number(ctx.params.id);
      if (!repo.invitations.has(id)) throw notFound();
      assertUnlocked(ctx, repo);
      repo.invitations.delete(id);
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/repos",
    handler: (ctx) => {
      const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
      return listRepositories(ctx, org?.account);
    },
  },
  {
    method: "GET",
    pattern: "/users/:user/repos",
    handler: (ctx) => listRepositories(ctx, ctx.world.account(ctx.params.user ?? "")),
  },
];
