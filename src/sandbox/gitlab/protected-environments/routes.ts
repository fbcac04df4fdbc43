import { grapeBoolean, grapeInteger } from "../grape-values.js";
import {
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
import { sharesOf } from "../shares/records.js";
import { requireTier } from "../tiers.js";
import { visibleGroup, visibleProject } from "../world/access.js";
import type { Group, Project } from "../world/records.js";
import {
  type ApprovalRule,
  type DeployLevel,
  entryIds,
  environmentsOf,
  type Grantee,
  type ProtectedEnvironment,
  protectedEnvironmentsOf,
} from "./records.js";
import { protectedEnvironment } from "./shapes.js";

/**
 * GitLab's protected environments API (docs, "Protected environments API"; the endpoints'
 * parameters and rules as ee/lib/api/protected_environments.rb declares them). Premium: below it
 * the sandbox answers 403, as for GitLab's other Premium endpoints (tiers.ts). A project's take the
 * Maintainer role (`authorize_admin_project`), a group's the Owner role
 * (`admin_protected_environment`: the request specs deny a group's Maintainer). A POST of a name
 * already protected is a 409; a PUT adds the entries without an id, updates those with one and
 * removes those with `_destroy`, all or nothing, and refuses to leave no deploy access level
 * ("Deploy access levels is too short (minimum is 1 character)", the request specs); a group's
 * PUT sets `required_approval_count` to 0 when it is left out (its `default: 0`). A user must be
 * a member of the project (or group), a group one above it or shared with it ("each group must
 * have this project shared"; for a group's environment, the group, one below it or shared with it).
 */

type Owner = { project: Project } | { group: Group };

const recordOf = (owner: Owner) => ("project" in owner ? owner.project : owner.group);

function ownerOf(ctx: RequestContext, scope: "projects" | "groups"): Owner {
  const owner: Owner =
    scope === "projects"
      ? { project: visibleProject(ctx) }
      : { group: visibleGroup(ctx, ctx.params.id) };
  requireTier(ctx, "premium");
  const role = "project" in owner ? "maintainer" : "owner";
  if (!ctx.world.hasRole(recordOf(owner), ctx.caller, role)) throw gitlabForbidden();
  return owner;
}

function chain(group: Group): Group[] {
  const found: Group[] = [];
  for (let at: Group | null = group; at !== null; at = at.parent) found.push(at);
  return found;
}

/** Whether a group may be named in the owner's protected environment. */
function groupAllowed(ctx: RequestContext, owner: Owner, group: Group): boolean {
  if (sharesOf(recordOf(owner)).has(group.id)) return true;
  if ("project" in owner) return chain(owner.project.group).includes(group);
  return chain(group).includes(owner.group);
}

type Problems = string[];

function principalOf(
  ctx: RequestContext,
  owner: Owner,
  item: Record<string, unknown>,
  label: string,
  problems: Problems,
): Grantee | undefined {
  const userId = grapeInteger(item.user_id);
  if (typeof userId === "number") {
    const user = ctx.world.users.get(userId);
    if (user === undefined || ctx.world.accessLevel(recordOf(owner), user) <= 0) {
      problems.push(
        `${label} user must be a member of the ${"project" in owner ? "project" : "group"}`,
      );
      return undefined;
    }
    return { kind: "user", user };
  }
  const groupId = grapeInteger(item.group_id);
  if (typeof groupId === "number") {
    const group = ctx.world.groups.get(groupId);
    if (group === undefined || !groupAllowed(ctx, owner, group)) {
      problems.push(
        `${label} group does not have access to the ${"project" in owner ? "project" : "group"}`,
      );
      return undefined;
    }
    return { kind: "group", group };
  }
  const level = grapeInteger(item.access_level);
  if (typeof level !== "number") {
    problems.push(`${label} access level can't be blank`);
    return undefined;
  }
  return { kind: "role", level };
}

function sameAs(a: Grantee, b: Grantee): boolean {
  if (a.kind === "role" && b.kind === "role") return a.level === b.level;
  if (a.kind === "user" && b.kind === "user") return a.user === b.user;
  if (a.kind === "group" && b.kind === "group") return a.group === b.group;
  return false;
}

function integerOr(value: unknown, fallback: number): number {
  const read = grapeInteger(value);
  return typeof read === "number" ? read : fallback;
}

/**
 * A list after the items of one request (POST: every item new; PUT: by id). An id the list lacks
 * is ActiveRecord's RecordNotFound for nested attributes, GitLab's 404.
 */
function applied<T extends DeployLevel>(
  ctx: RequestContext,
  owner: Owner,
  current: readonly T[],
  raw: unknown,
  label: string,
  problems: Problems,
  make: (base: DeployLevel, item: Record<string, unknown>, old?: T) => T,
): T[] {
  const list = [...current];
  if (!Array.isArray(raw)) return list;
  for (const value of raw) {
    if (value === null || typeof value !== "object") continue;
    const item = value as Record<string, unknown>;
    const id = grapeInteger(item.id);
    if (typeof id === "number") {
      const at = list.findIndex((entry) => entry.id === id);
      if (at < 0) throw gitlabNotFound();
      if (grapeBoolean(item._destroy) === true) {
        list.splice(at, 1);
        continue;
      }
      const old = list[at]!;
      const hasPrincipal = ["user_id", "group_id", "access_level"].some((key) => item[key] != null);
      const principal = hasPrincipal
        ? principalOf(ctx, owner, item, label, problems)
        : old.principal;
      if (principal === undefined) continue;
      list[at] = make(
        {
          id,
          principal,
          groupInheritanceType: integerOr(item.group_inheritance_type, old.groupInheritanceType),
        },
        item,
        old,
      );
      continue;
    }
    const principal = principalOf(ctx, owner, item, label, problems);
    if (principal === undefined) continue;
    if (list.some((entry) => sameAs(entry.principal, principal))) {
      problems.push(`${label} has already been taken`);
      continue;
    }
    list.push(
      make(
        {
          id: entryIds(ctx.world).next++,
          principal,
          groupInheritanceType: integerOr(item.group_inheritance_type, 0),
        },
        item,
      ),
    );
  }
  return list;
}

/** Grape's `at_least_one_of :access_level, :user_id, :group_id` for each approval rule. */
function checkRules(raw: unknown): void {
  if (!Array.isArray(raw)) return;
  for (const value of raw) {
    const item = (value ?? {}) as Record<string, unknown>;
    if (!["access_level", "user_id", "group_id"].some((key) => item[key] != null)) {
      throw new HttpError({
        status: 400,
        body: {
          error:
            "approval_rules[access_level], approval_rules[user_id], approval_rules[group_id] are missing, at least one parameter must be provided",
        },
      });
    }
  }
}

/** The environment after a request's fields, or a 422 with what GitLab's validations say. */
function changed(
  ctx: RequestContext,
  owner: Owner,
  current: ProtectedEnvironment,
  params: Record<string, unknown>,
  countDefault: number | undefined,
): ProtectedEnvironment {
  checkRules(params.approval_rules);
  const problems: Problems = [];
  const deployAccessLevels = applied(
    ctx,
    owner,
    current.deployAccessLevels,
    params.deploy_access_levels,
    "Deploy access levels",
    problems,
    (base) => base,
  );
  const approvalRules = applied<ApprovalRule>(
    ctx,
    owner,
    current.approvalRules,
    params.approval_rules,
    "Approval rules",
    problems,
    (base, item, old) => ({
      ...base,
      requiredApprovals: integerOr(item.required_approvals, old?.requiredApprovals ?? 1),
    }),
  );
  if (deployAccessLevels.length === 0)
    problems.push("Deploy access levels is too short (minimum is 1 character)");
  const count = grapeInteger(params.required_approval_count);
  const requiredApprovalCount =
    typeof count === "number" ? count : (countDefault ?? current.requiredApprovalCount);
  if (requiredApprovalCount < 0 || requiredApprovalCount > 5)
    problems.push("Required approval count must be less than or equal to 5");
  if (problems.length > 0) throw new HttpError({ status: 422, body: { message: problems } });
  return { name: current.name, deployAccessLevels, approvalRules, requiredApprovalCount };
}

const TIERS = new Set(["production", "staging", "testing", "development", "other"]);

function routesOf(scope: "projects" | "groups"): Route[] {
  const base = `/api/v4/${scope}/:id/protected_environments`;
  const template = `/api/v4/${scope}/{id}/protected_environments`;
  const find = (ctx: RequestContext, owner: Owner) => {
    const found = protectedEnvironmentsOf(recordOf(owner)).get(ctx.params.name ?? "");
    if (found === undefined) throw gitlabNotFound();
    return found;
  };
  return [
    {
      method: "GET",
      pattern: base,
      operation: `GET ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const sorted = [...protectedEnvironmentsOf(recordOf(owner)).values()].sort((a, b) =>
          a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
        );
        return gitlabPageReply(ctx, sorted, protectedEnvironment);
      },
    },
    {
      method: "GET",
      pattern: `${base}/:name`,
      operation: `GET ${template}/{name}`,
      handler: (ctx) => ok(protectedEnvironment(find(ctx, ownerOf(ctx, scope)))),
    },
    {
      method: "POST",
      pattern: base,
      operation: `POST ${template}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const params = parameters(ctx);
        const name = String(params.name ?? "");
        const all = protectedEnvironmentsOf(recordOf(owner));
        if (all.has(name)) throw gitlabError(409, `Protected environment '${name}' already exists`);
        if ("group" in owner && !TIERS.has(name))
          throw new HttpError({
            status: 422,
            body: { message: ["Name must be a deployment tier"] },
          });
        const empty: ProtectedEnvironment = {
          name,
          deployAccessLevels: [],
          approvalRules: [],
          requiredApprovalCount: 0,
        };
        const created = changed(ctx, owner, empty, params, 0);
        all.set(name, created);
        return ok(protectedEnvironment(created), 201);
      },
    },
    {
      method: "PUT",
      pattern: `${base}/:name`,
      operation: `PUT ${template}/{name}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const current = find(ctx, owner);
        const updated = changed(
          ctx,
          owner,
          current,
          parameters(ctx),
          "group" in owner ? 0 : undefined,
        );
        protectedEnvironmentsOf(recordOf(owner)).set(current.name, updated);
        return ok(protectedEnvironment(updated));
      },
    },
    {
      method: "DELETE",
      pattern: `${base}/:name`,
      operation: `DELETE ${template}/{name}`,
      handler: (ctx) => {
        const owner = ownerOf(ctx, scope);
        const current = find(ctx, owner);
        protectedEnvironmentsOf(recordOf(owner)).delete(current.name);
        return { status: 204, body: undefined };
      },
    },
  ];
}

/**
 * A project's environments (docs, "Environments API", "List environments"), the names a
 * deployment targets; Free like the project's other reads (Reporter and up: the sandbox's reading).
 * Their other fields are the sandbox's constant stand-ins: it runs no deployments.
 */
const environmentRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/environments",
    operation: "GET /api/v4/projects/{id}/environments",
    handler: (ctx) => {
      const project = visibleProject(ctx);
      if (!ctx.world.hasRole(project, ctx.caller, "reporter")) throw gitlabForbidden();
      const name = ctx.url.searchParams.get("name");
      const names = [...environmentsOf(project)].filter((one) => name === null || one === name);
      return gitlabPageReply(ctx, names, (one) => ({
        id: [...environmentsOf(project)].indexOf(one) + 1,
        name: one,
        slug: one.replaceAll(/[^a-z0-9]+/gi, "-").toLowerCase(),
        external_url: null,
        state: "available",
        tier: TIERS.has(one) ? one : "other",
      }));
    },
  },
];

export const protectedEnvironmentRoutes: Route[] = [
  ...routesOf("projects"),
  ...routesOf("groups"),
  ...environmentRoutes,
];
