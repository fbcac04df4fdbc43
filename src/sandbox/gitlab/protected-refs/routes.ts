import {
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  noContent,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { GITLAB_TIERS, requireTier } from "../tiers.js";
import { visibleGroup, visibleProject } from "../world/access.js";
import type { GitlabWorld, Project } from "../world/records.js";
import {
  applyItems,
  type EntryItem,
  levelItem,
  type ListName,
  readItems,
  recordNotFound,
  unprocessable,
} from "./entries.js";
import {
  type AccessEntry,
  groupProtectedBranchesOf,
  inheritedBranches,
  type ProtectedBranch,
  protectedBranchesOf,
  protectionIds,
} from "./records.js";
import { protectedBranch } from "./shapes.js";

/**
 * GitLab's "Protected branches API" (doc/api/protected_branches.md, gitlabhq/gitlabhq 017a6c12):
 * list (with the project's groups' protections, `inherited: true`, on Premium), get, protect
 * (POST), update (PATCH) and unprotect (DELETE). Reading takes the Developer role, writing
 * Maintainer (403 otherwise). `allowed_to_push`, `allowed_to_merge`, `allowed_to_unprotect` and
 * `code_owner_approval_required` are "Premium and Ultimate only": on Free they are dropped as
 * undeclared parameters are, so Free keeps one role level per list, set by `push_access_level` and
 * `merge_access_level` at creation — and its PATCH, which has no such scalar (the OpenAPI
 * description of `patchApiV4ProjectsIdProtectedBranchesName` lists `allow_force_push`,
 * `unprotect_access_level`, the three arrays and `code_owner_approval_required`), cannot change them.
 */

export function premium(world: GitlabWorld): boolean {
  return GITLAB_TIERS.indexOf(world.tier) >= GITLAB_TIERS.indexOf("premium");
}

function readable(ctx: RequestContext): Project {
  const project = visibleProject(ctx);
  if (!ctx.world.hasRole(project, ctx.caller, "developer")) throw gitlabForbidden();
  return project;
}

function writable(ctx: RequestContext): Project {
  const project = visibleProject(ctx);
  if (!ctx.world.hasRole(project, ctx.caller, "maintainer")) throw gitlabForbidden();
  return project;
}

function flag(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false|1|0)$/i.test(value))
    return /^(true|1)$/i.test(value);
  return undefined;
}

const LISTS = [
  ["push", "allowed_to_push", "push_access_level"],
  ["merge", "allowed_to_merge", "merge_access_level"],
  ["unprotect", "allowed_to_unprotect", "unprotect_access_level"],
] as const;

/** Every protection of a project's listing: its own first, then its groups', by name. */
function listed(world: GitlabWorld, project: Project) {
  const own = [...protectedBranchesOf(project).values()];
  const inherited = premium(world) ? inheritedBranches(project) : [];
  return [
    ...own.map((branch) => ({ branch, inherited: false })),
    ...inherited.map((branch) => ({ branch, inherited: true })),
  ];
}

/**
 * POST: a new protection of `name`. Each list takes its `allowed_to_*` entries (Premium) and its
 * scalar level; with neither, the Maintainer role (40, "Default is 40"). A name already protected
 * answers 409 "Protected branch '<name>' already exists" (the OpenAPI description's 409).
 */
function protect(ctx: RequestContext) {
  const project = writable(ctx);
  const params = parameters(ctx);
  const name = String(params.name);
  if (protectedBranchesOf(project).has(name))
    throw gitlabError(409, `Protected branch '${name}' already exists`);
  const problems: string[] = [];
  const isPremium = premium(ctx.world);
  const lists = {} as Record<ListName, AccessEntry[]>;
  for (const [list, array, scalar] of LISTS) {
    const items: EntryItem[] = [
      ...levelItem(params[scalar]),
      ...(isPremium ? readItems(ctx.world, project, list, params[array], problems) : []),
    ];
    const start = items.length === 0 ? levelItem(40) : items;
    lists[list] = applyItems(ctx.world, list, [], start, problems);
  }
  if (problems.length > 0) throw unprocessable(problems);
  const branch: ProtectedBranch = {
    id: protectionIds(ctx.world).ref++,
    name,
    push: lists.push,
    merge: lists.merge,
    unprotect: lists.unprotect,
    allow_force_push: flag(params.allow_force_push) ?? false,
    code_owner_approval_required: isPremium
      ? (flag(params.code_owner_approval_required) ?? false)
      : false,
  };
  protectedBranchesOf(project).set(name, branch);
  return { status: 201, body: protectedBranch(branch, isPremium, false) };
}

/**
 * PATCH: `allow_force_push`; on Premium also `code_owner_approval_required`, the arrays (entries
 * added, replaced by `id`, removed by `{id, _destroy: true}`) and `unprotect_access_level`. Only a
 * project's own protection: an inherited one is not found at the project's path.
 */
function update(ctx: RequestContext) {
  const project = writable(ctx);
  const branch = protectedBranchesOf(project).get(ctx.params.name ?? "");
  if (branch === undefined) throw recordNotFound();
  const params = parameters(ctx);
  const isPremium = premium(ctx.world);
  const problems: string[] = [];
  const lists = { push: branch.push, merge: branch.merge, unprotect: branch.unprotect };
  if (isPremium) {
    for (const [list, array] of LISTS) {
      const items = [
        ...readItems(ctx.world, project, list, params[array], problems),
        ...(list === "unprotect" ? levelItem(params.unprotect_access_level) : []),
      ];
      if (items.length > 0) lists[list] = applyItems(ctx.world, list, lists[list], items, problems);
    }
  }
  if (problems.length > 0) throw unprocessable(problems);
  Object.assign(branch, lists);
  const force = flag(params.allow_force_push);
  if (force !== undefined) branch.allow_force_push = force;
  const owners = flag(params.code_owner_approval_required);
  if (owners !== undefined && isPremium) branch.code_owner_approval_required = owners;
  return ok(protectedBranch(branch, isPremium, false));
}

export const protectedBranchRoutes: Route[] = [
  {
    /**
     * "Group-level protected branches API" (Premium): a group's own protections, which its
     * projects list as `inherited`; 403 below Premium once the group is found, as GitLab's
     * Premium group endpoints answer. Reading takes the Maintainer role here (the sandbox's
     * choice: the docs' page is not read for it).
     */
    method: "GET",
    pattern: "/api/v4/groups/:id/protected_branches",
    operation: "GET /api/v4/groups/{id}/protected_branches",
    handler: (ctx) => {
      const group = visibleGroup(ctx, ctx.params.id);
      requireTier(ctx, "premium");
      if (!ctx.world.hasRole(group, ctx.caller, "maintainer")) throw gitlabForbidden();
      return {
        status: 200,
        body: [...groupProtectedBranchesOf(group).values()].map((branch) =>
          protectedBranch(branch, true, false),
        ),
      };
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/protected_branches",
    operation: "GET /api/v4/projects/{id}/protected_branches",
    handler: (ctx) => {
      const project = readable(ctx);
      const search = ctx.query.get("search");
      const shown = listed(ctx.world, project).filter(
        ({ branch }) => search === null || branch.name.includes(search),
      );
      const isPremium = premium(ctx.world);
      return {
        status: 200,
        body: shown.map(({ branch, inherited }) => protectedBranch(branch, isPremium, inherited)),
      };
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/protected_branches/:name",
    operation: "GET /api/v4/projects/{id}/protected_branches/{name}",
    handler: (ctx) => {
      const project = readable(ctx);
      const found = listed(ctx.world, project).find(
        ({ branch }) => branch.name === ctx.params.name,
      );
      if (found === undefined) throw gitlabNotFound();
      return ok(protectedBranch(found.branch, premium(ctx.world), found.inherited));
    },
  },
  {
    method: "POST",
    pattern: "/api/v4/projects/:id/protected_branches",
    operation: "POST /api/v4/projects/{id}/protected_branches",
    handler: protect,
  },
  {
    method: "PATCH",
    pattern: "/api/v4/projects/:id/protected_branches/:name",
    operation: "PATCH /api/v4/projects/{id}/protected_branches/{name}",
    handler: update,
  },
  {
    // "Unprotect repository branches": 204; a name the project does not protect itself, 404.
    method: "DELETE",
    pattern: "/api/v4/projects/:id/protected_branches/:name",
    operation: "DELETE /api/v4/projects/{id}/protected_branches/{name}",
    handler: (ctx) => {
      const project = writable(ctx);
      if (!protectedBranchesOf(project).delete(ctx.params.name ?? "")) throw recordNotFound();
      return noContent;
    },
  },
];
