import { idParam, noContent, notFound, ok, type Reply, type RequestContext } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { type BranchPolicy, type Environment, environmentsOf, environmentIds } from "./records.js";
import type { Repository } from "../world/records.js";
import { adminRepository, assertUnlocked, visibleRepository } from "../world/access.js";
import { simpleUser } from "../world/shapes.js";
import { team } from "../team/shapes.js";
import {
  type EnvironmentBody,
  environmentAfter,
  environmentNameProblem,
  storeEnvironment,
} from "./model.js";

/**
 * Deployment environments (GitHub's "Deployment environments") and their custom deployment branch
 * and tag policies ("Deployment branch policies"). Reads take read access ("Anyone with read access
 * to the repository can use this endpoint."), writes admin rights.
 */

type Json = Record<string, unknown>;

function nodeId(kind: string, id: number): string {
  return Buffer.from(`${kind}:${id}`).toString("base64url");
}

function environmentUrl(base: string, repo: Repository, env: Environment): string {
  return `${base}/repos/${repo.owner.login}/${repo.name}/environments/${encodeURIComponent(env.name)}`;
}

/**
 * GitHub's Environment: its protection rules as GitHub lists them (a wait timer when there is one,
 * required reviewers when there are any, a branch policy when not every branch may deploy).
 */
function environmentShape(base: string, repo: Repository, env: Environment): Json {
  const rules: Json[] = [];
  const rule = (index: number, type: string, fields: Json) =>
    rules.push({
      id: env.id * 10 + index,
      node_id: nodeId("Gate", env.id * 10 + index),
      type,
      ...fields,
    });
  if (env.wait_timer > 0) rule(1, "wait_timer", { wait_timer: env.wait_timer });
  if (env.reviewers.length > 0) {
    rule(2, "required_reviewers", {
      prevent_self_review: env.prevent_self_review,
      reviewers: env.reviewers.map((reviewer) =>
        reviewer.type === "User"
          ? { type: "User", reviewer: simpleUser(base, reviewer.user) }
          : { type: "Team", reviewer: team(base, reviewer.team) },
      ),
    });
  }
  if (env.branchPolicy !== null) rule(3, "branch_policy", {});
  return {
    id: env.id,
    node_id: nodeId("Environment", env.id),
    name: env.name,
    url: environmentUrl(base, repo, env),
    html_url: `${base}/${repo.owner.login}/${repo.name}/deployments/activity_log?environments_filter=${encodeURIComponent(env.name)}`,
    created_at: env.created_at,
    updated_at: env.updated_at,
    protection_rules: rules,
    deployment_branch_policy:
      env.branchPolicy === null
        ? null
        : {
            protected_branches: env.branchPolicy === "protected",
            custom_branch_policies: env.branchPolicy === "custom",
          },
  };
}

function policyShape(value: BranchPolicy): Json {
  return {
    id: value.id,
    node_id: nodeId("GateBranchPolicy", value.id),
    name: value.name,
    type: value.type,
  };
}

function environmentOf(ctx: RequestContext, repo: Repository): Environment {
  const found = environmentsOf(repo).get((ctx.params.name ?? "").toLowerCase());
  if (!found) throw notFound();
  return found;
}

/**
 * The environment whose custom policies a request is about: GitHub answers 404 "Not Found or
 * `deployment_branch_policy.custom_branch_policies` property for the environment is set to false"
 * (the create operation's published 404).
 */
function customEnvironment(ctx: RequestContext, repo: Repository): Environment {
  const env = environmentOf(ctx, repo);
  if (env.branchPolicy !== "custom") throw notFound();
  return env;
}

function policyOf(ctx: RequestContext, env: Environment): BranchPolicy {
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : env.policies.get(id);
  if (!found) throw notFound();
  return found;
}

function policyUrl(ctx: RequestContext, repo: Repository, env: Environment, id: number): string {
  return `${environmentUrl(ctx.base, repo, env)}/deployment-branch-policies/${id}`;
}

/** Writes to an environment's policies: admin rights, an unlocked repository, custom policies on. */
function writablePolicies(ctx: RequestContext): { repo: Repository; env: Environment } {
  const { repo } = adminRepository(ctx);
  const env = customEnvironment(ctx, repo);
  assertUnlocked(ctx, repo);
  return { repo, env };
}

function createPolicy(ctx: RequestContext): Reply {
  const { repo, env } = writablePolicies(ctx);
  const body = ctx.json() as { name: string; type?: "branch" | "tag" };
  if (body.name.trim() === "") throw ctx.invalid(["name can't be blank"], "GateBranchPolicy");
  const type = body.type ?? "branch";
  const same = [...env.policies.values()].find(
    (policy) => policy.name === body.name && policy.type === type,
  );
  // "Response if the same branch name pattern already exists" (the operation's published 303).
  if (same !== undefined) {
    return { status: 303, headers: { Location: policyUrl(ctx, repo, env, same.id) } };
  }
  const created: BranchPolicy = {
    id: environmentIds(ctx.world).branchPolicy++,
    name: body.name,
    type,
  };
  env.policies.set(created.id, created);
  return ok(policyShape(created));
}

export const environmentRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/environments",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const all = [...environmentsOf(repo).values()];
      const page = paginate(ctx, all);
      return {
        status: 200,
        body: {
          total_count: all.length,
          environments: page.items.map((env) => environmentShape(ctx.base, repo, env)),
        },
        headers: page.headers,
      };
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/environments/:name",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      return ok(environmentShape(ctx.base, repo, environmentOf(ctx, repo)));
    },
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/environments/:name",
    operation: "PUT /repos/{owner}/{repo}/environments/{environment_name}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      assertUnlocked(ctx, repo);
      const name = ctx.params.name ?? "";
      const problem = environmentNameProblem(name);
      if (problem) throw problem;
      const body = ctx.json() as EnvironmentBody;
      const current = environmentsOf(repo).get(name.toLowerCase());
      const fields = environmentAfter(ctx.world, repo, current, body);
      const stored = storeEnvironment(ctx.world, repo, name, fields, ctx.now());
      return ok(environmentShape(ctx.base, repo, stored));
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/environments/:name",
    operation: "DELETE /repos/{owner}/{repo}/environments/{environment_name}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const env = environmentOf(ctx, repo);
      assertUnlocked(ctx, repo);
      environmentsOf(repo).delete(env.name.toLowerCase());
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/environments/:name/deployment-branch-policies",
    handler: (ctx) => {
      const env = customEnvironment(ctx, visibleRepository(ctx));
      const all = [...env.policies.values()];
      const page = paginate(ctx, all);
      return {
        status: 200,
        body: { total_count: all.length, branch_policies: page.items.map(policyShape) },
        headers: page.headers,
      };
    },
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/environments/:name/deployment-branch-policies",
    operation:
      "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies",
    handler: createPolicy,
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/environments/:name/deployment-branch-policies/:id",
    handler: (ctx) =>
      ok(policyShape(policyOf(ctx, customEnvironment(ctx, visibleRepository(ctx))))),
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/environments/:name/deployment-branch-policies/:id",
    operation:
      "PUT /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}",
    handler: (ctx) => {
      const { env } = writablePolicies(ctx);
      const policy = policyOf(ctx, env);
      const body = ctx.json() as { name: string };
      if (body.name.trim() === "") throw ctx.invalid(["name can't be blank"], "GateBranchPolicy");
      policy.name = body.name;
      return ok(policyShape(policy));
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/environments/:name/deployment-branch-policies/:id",
    operation:
      "DELETE /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}",
    handler: (ctx) => {
      const { env } = writablePolicies(ctx);
      env.policies.delete(policyOf(ctx, env).id);
      return noContent;
    },
  },
];
