import {
  idParam,
  isoTime,
  noContent,
  notFound,
  ok,
  type Reply,
  type RequestContext,
} from "../http.js";
import { administeredOrganization } from "../world/access.js";
import { paginate } from "../../core/pagination.js";
import { adminRepository, assertUnlocked, visibleRepository } from "../world/access.js";
import type { Route } from "../http.js";
import { branchRules, rulesetsOf } from "./match.js";
import { rulesetShape, rulesetSummary } from "./shapes.js";
import { rulesetFromBody, rulesetRefused } from "./model.js";
import type { Repository } from "../world/records.js";
import {
  type Ruleset,
  type RulesetSource,
  repositoryRulesetsOf,
  organizationRulesetsOf,
  rulesetIds,
} from "./records.js";

/**
 * Repository and organization rulesets (list, read, create, update, delete) and the rules that apply
 * to a branch. The reads a client needs to name bypass actors are an organization's teams
 * (team/routes.ts) and app installations and an app by its slug (apps/routes.ts).
 */

/** `includes_parents` defaults to true (the spec); only "false" turns it off. */
function includesParents(ctx: RequestContext): boolean {
  return ctx.query.get("includes_parents") !== "false";
}

/** `targets=branch,tag` keeps rulesets of those targets; absent keeps every ruleset. */
function targetFilter(ctx: RequestContext): (ruleset: Ruleset) => boolean {
  const given = ctx.query.get("targets");
  if (given === null) return () => true;
  const wanted = new Set(given.split(",").map((value) => value.trim()));
  return (ruleset) => wanted.has(ruleset.target);
}

function listed(ctx: RequestContext, rulesets: Ruleset[]): Reply {
  const page = paginate(ctx, rulesets.filter(targetFilter(ctx)));
  return {
    status: 200,
    body: page.items.map((ruleset) => rulesetSummary(ctx.base, ruleset)),
    headers: page.headers,
  };
}

function create(ctx: RequestContext, source: RulesetSource, store: Map<number, Ruleset>): Ruleset {
  const result = rulesetFromBody(ctx.world, source, ctx.json());
  if ("errors" in result) throw rulesetRefused(result.errors);
  const now = isoTime(ctx.now());
  const created: Ruleset = {
    ...result.ruleset,
    id: rulesetIds(ctx.world).next++,
    created_at: now,
    updated_at: now,
  };
  store.set(created.id, created);
  return created;
}

function update(ctx: RequestContext, current: Ruleset, store: Map<number, Ruleset>): Ruleset {
  const result = rulesetFromBody(ctx.world, current.source, ctx.json(), current);
  if ("errors" in result) throw rulesetRefused(result.errors);
  const updated: Ruleset = { ...current, ...result.ruleset, updated_at: isoTime(ctx.now()) };
  store.set(updated.id, updated);
  return updated;
}

function ownRuleset(ctx: RequestContext, store: Map<number, Ruleset>): Ruleset {
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : store.get(id);
  if (!found) throw notFound();
  return found;
}

/** A repository's ruleset, or with includes_parents one of its organization's that selects it. */
function visibleRuleset(ctx: RequestContext, repo: Repository): Ruleset {
  const id = idParam(ctx.params.id);
  const found = rulesetsOf(repo, includesParents(ctx)).find((ruleset) => ruleset.id === id);
  if (!found) throw notFound();
  return found;
}

export const rulesetRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/rulesets",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      return listed(ctx, rulesetsOf(repo, includesParents(ctx)));
    },
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/rulesets",
    operation: "POST /repos/{owner}/{repo}/rulesets",
    handler: (ctx) => {
      const { repo, caller } = adminRepository(ctx);
      assertUnlocked(ctx, repo);
      const created = create(ctx, { type: "Repository", repo }, repositoryRulesetsOf(repo));
      return ok(rulesetShape(ctx.base, ctx.world, created, caller, repo), 201);
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/rulesets/:id",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      return ok(rulesetShape(ctx.base, ctx.world, visibleRuleset(ctx, repo), ctx.caller, repo));
    },
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/rulesets/:id",
    operation: "PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}",
    handler: (ctx) => {
      const { repo, caller } = adminRepository(ctx);
      const current = ownRuleset(ctx, repositoryRulesetsOf(repo));
      assertUnlocked(ctx, repo);
      const updated = update(ctx, current, repositoryRulesetsOf(repo));
      return ok(rulesetShape(ctx.base, ctx.world, updated, caller, repo));
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/rulesets/:id",
    operation: "DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const current = ownRuleset(ctx, repositoryRulesetsOf(repo));
      assertUnlocked(ctx, repo);
      repositoryRulesetsOf(repo).delete(current.id);
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/rules/branches/*branch",
    handler: (ctx) => {
      // The branch need not exist: the rules that would apply to that name are returned.
      const repo = visibleRepository(ctx);
      const page = paginate(ctx, branchRules(repo, ctx.params.branch ?? ""));
      return { status: 200, body: page.items, headers: page.headers };
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/rulesets",
    handler: (ctx) =>
      listed(ctx, [...organizationRulesetsOf(administeredOrganization(ctx)).values()]),
  },
  {
    method: "POST",
    pattern: "/orgs/:org/rulesets",
    operation: "POST /orgs/{org}/rulesets",
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      const created = create(ctx, { type: "Organization", org }, organizationRulesetsOf(org));
      return ok(rulesetShape(ctx.base, ctx.world, created, ctx.caller, null), 201);
    },
  },
  {
    method: "GET",
    pattern: "/orgs/:org/rulesets/:id",
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      return ok(
        rulesetShape(
          ctx.base,
          ctx.world,
          ownRuleset(ctx, organizationRulesetsOf(org)),
          ctx.caller,
          null,
        ),
      );
    },
  },
  {
    method: "PUT",
    pattern: "/orgs/:org/rulesets/:id",
    operation: "PUT /orgs/{org}/rulesets/{ruleset_id}",
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      const updated = update(
        ctx,
        ownRuleset(ctx, organizationRulesetsOf(org)),
        organizationRulesetsOf(org),
      );
      return ok(rulesetShape(ctx.base, ctx.world, updated, ctx.caller, null));
    },
  },
  {
    method: "DELETE",
    pattern: "/orgs/:org/rulesets/:id",
    operation: "DELETE /orgs/{org}/rulesets/{ruleset_id}",
    handler: (ctx) => {
      const org = administeredOrganization(ctx);
      organizationRulesetsOf(org).delete(ownRuleset(ctx, organizationRulesetsOf(org)).id);
      return noContent;
    },
  },
];
