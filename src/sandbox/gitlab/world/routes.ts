import {
  gitlabBadParameter,
  gitlabNotFound,
  ok,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { checkOffset, keysetPage, offsetPage } from "../pagination.js";
import { canSeeGroup, canSeeProject, visibleGroup, visibleProject } from "./access.js";
import { type Group, type Membership, membershipExpiry, type Project } from "./records.js";
import { groupAnswer, memberAnswer, planningUser, projectAnswer } from "./shapes.js";

/**
 * The world's own reads: the caller, groups and their subgroups, projects and their listings, and
 * members. Each listing takes the parameters GitLab's docs give it ("Groups API", "Projects API",
 * "Group and project members API"), with GitLab's defaults.
 */

/** A Grape Boolean parameter: absent, or true/false (1/0); anything else is a 400. */
function flag(ctx: RequestContext, name: string): boolean | undefined {
  const value = ctx.query.get(name);
  if (value === null) return undefined;
  if (/^(true|1)$/i.test(value)) return true;
  if (/^(false|0)$/i.test(value)) return false;
  throw gitlabBadParameter(`${name} is invalid`);
}

/** A parameter with a fixed set of values (Grape's `values:`), its default when absent. */
function choice<T extends string>(
  ctx: RequestContext,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const value = ctx.query.get(name);
  if (value === null) return fallback;
  if (!(values as readonly string[]).includes(value)) {
    throw gitlabBadParameter(`${name} does not have a valid value`);
  }
  return value as T;
}

type Key = string | number;
const compare = (a: Key, b: Key) =>
  typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));

/** Sorts by a key in the asked direction, ties by id in the same direction (GitLab's tie-breaker). */
function ordered<T extends { id: number }>(items: T[], key: (item: T) => Key, desc: boolean): T[] {
  const sign = desc ? -1 : 1;
  return items.sort((a, b) => sign * (compare(key(a), key(b)) || a.id - b.id));
}

const PROJECT_ORDERS = [
  "id",
  "name",
  "path",
  "created_at",
  "updated_at",
  "last_activity_at",
] as const;

function projectKey(order: (typeof PROJECT_ORDERS)[number]): (item: Project) => Key {
  if (order === "id") return (item) => item.id;
  if (order === "name") return (item) => item.name.toLowerCase();
  if (order === "path") return (item) => item.path.toLowerCase();
  // The sandbox keeps one time per project: it was created, and neither updated nor active since.
  return (item) => item.created_at;
}

/** The filters both project listings share: `archived`, `visibility`. */
function filteredProjects(ctx: RequestContext, projects: Project[]): Project[] {
  const archived = flag(ctx, "archived");
  const visibility = ctx.query.get("visibility");
  return projects.filter(
    (item) =>
      (archived === undefined || item.archived === archived) &&
      (visibility === null || item.visibility === visibility),
  );
}

function shownProject(ctx: RequestContext, item: Project, simple: boolean) {
  return projectAnswer(ctx.world, ctx.base, item, simple);
}

/** A page of projects by offset, ordered as asked (default `created_at` `desc`), simple or full. */
function projectPage(ctx: RequestContext, projects: Project[]) {
  const order = choice(ctx, "order_by", PROJECT_ORDERS, "created_at");
  const desc = choice(ctx, "sort", ["asc", "desc"], "desc") === "desc";
  const simple = flag(ctx, "simple") === true;
  const page = offsetPage(ctx, ordered(projects, projectKey(order), desc));
  return {
    status: 200,
    body: page.items.map((item) => shownProject(ctx, item, simple)),
    headers: page.headers,
  };
}

const GROUP_ORDERS = ["name", "path", "id"] as const;

/** Groups as the subgroup listings answer them: visible ones, default `name` `asc`. */
function groupPage(ctx: RequestContext, groups: Group[]) {
  const caller = requireCaller(ctx);
  const order = choice(ctx, "order_by", GROUP_ORDERS, "name");
  const desc = choice(ctx, "sort", ["asc", "desc"], "asc") === "desc";
  const key = (item: Group): Key =>
    order === "id" ? item.id : order === "path" ? item.path.toLowerCase() : item.name.toLowerCase();
  const visible = groups.filter((item) => canSeeGroup(ctx, item, caller));
  const page = offsetPage(ctx, ordered(visible, key, desc));
  return {
    status: 200,
    body: page.items.map((item) => groupAnswer(ctx.world, ctx.base, item)),
    headers: page.headers,
  };
}

function memberPage(ctx: RequestContext, record: Group | Project, members: Membership[]) {
  const sorted = [...members].sort((a, b) => a.user.id - b.user.id);
  const page = offsetPage(ctx, sorted);
  return {
    status: 200,
    body: page.items.map((item) => memberAnswer(ctx.world, ctx.base, item, record)),
    headers: page.headers,
  };
}

/** Direct members only (docs: "List all members of a group or project … direct members only"). */
function directMembers(ctx: RequestContext, record: Group | Project): Membership[] {
  return [...record.members].flatMap(([id, role]) => {
    const user = ctx.world.users.get(id);
    return user === undefined
      ? []
      : [
          {
            user,
            role,
            source: "group" in record ? undefined : record,
            expiresAt: membershipExpiry(record).get(id) ?? null,
          },
        ];
  });
}

export const worldRoutes: Route[] = [
  {
    /**
     * "List users" with `username` (docs, "Users API": "the username … case-insensitive"): an
     * array of the one user of that name, or an empty one. Forgeplan resolves usernames with it.
     */
    method: "GET",
    pattern: "/api/v4/users",
    operation: "GET /api/v4/users",
    handler: (ctx) => {
      requireCaller(ctx);
      const username = ctx.query.get("username");
      const users =
        username === null
          ? [...ctx.world.users.values()]
          : [ctx.world.user(username)].filter((user) => user !== undefined);
      return {
        status: 200,
        body: users.sort((a, b) => a.id - b.id).map((user) => planningUser(ctx.base, user)),
      };
    },
  },
  {
    // "Get a single user": 404 "User Not Found" for an id the instance lacks.
    method: "GET",
    pattern: "/api/v4/users/:id",
    operation: "GET /api/v4/users/{id}",
    handler: (ctx) => {
      requireCaller(ctx);
      const user = ctx.world.users.get(Number(ctx.params.id));
      if (user === undefined) throw gitlabNotFound("User Not Found");
      return ok(planningUser(ctx.base, user));
    },
  },
  {
    // The caller's own account.
    method: "GET",
    pattern: "/api/v4/user",
    handler: (ctx) => ok(planningUser(ctx.base, requireCaller(ctx))),
  },
  {
    // "List groups": every group the caller may see (a member's, those below it, internal and
    // public ones), default `name` `asc`.
    method: "GET",
    pattern: "/api/v4/groups",
    operation: "GET /api/v4/groups",
    handler: (ctx) => groupPage(ctx, [...ctx.world.groups.values()]),
  },
  {
    // By id or URL-encoded full path (`acme%2Fplatform`): the router sees the decoded segment.
    method: "GET",
    pattern: "/api/v4/groups/:id",
    operation: "GET /api/v4/groups/{id}",
    handler: (ctx) => {
      const found = visibleGroup(ctx, ctx.params.id);
      return ok({
        ...groupAnswer(ctx.world, ctx.base, found),
        ...ctx.world.groupDetailFields(found),
      });
    },
  },
  {
    // "List subgroups": the group's visible direct subgroups.
    method: "GET",
    pattern: "/api/v4/groups/:id/subgroups",
    operation: "GET /api/v4/groups/{id}/subgroups",
    handler: (ctx) => {
      const parent = visibleGroup(ctx, ctx.params.id);
      return groupPage(
        ctx,
        [...ctx.world.groups.values()].filter((item) => item.parent === parent),
      );
    },
  },
  {
    // "List descendant groups": every visible group below it, at any depth.
    method: "GET",
    pattern: "/api/v4/groups/:id/descendant_groups",
    operation: "GET /api/v4/groups/{id}/descendant_groups",
    handler: (ctx) => {
      const parent = visibleGroup(ctx, ctx.params.id);
      return groupPage(ctx, ctx.world.descendants(parent).slice(1));
    },
  },
  {
    /**
     * "List projects" of a group: its own projects, with `include_subgroups` those of every group
     * below it too, each as the caller may see it. `with_shared` (default true) would add the
     * projects other groups share with it; the sandbox adds none (its shares area keeps the shares,
     * the world does not read them).
     * `pagination=keyset` is not offered here (docs, "Keyset-based pagination", "Supported
     * resources" lists Projects, not a group's), so it pages by offset, without the offset ceiling.
     */
    method: "GET",
    pattern: "/api/v4/groups/:id/projects",
    operation: "GET /api/v4/groups/{id}/projects",
    handler: (ctx) => {
      const owner = visibleGroup(ctx, ctx.params.id);
      const caller = requireCaller(ctx);
      flag(ctx, "with_shared");
      const groups = new Set(
        flag(ctx, "include_subgroups") === true ? ctx.world.descendants(owner) : [owner],
      );
      const projects = [...ctx.world.projects.values()].filter(
        (item) => groups.has(item.group) && canSeeProject(ctx, item, caller),
      );
      return projectPage(ctx, filteredProjects(ctx, projects));
    },
  },
  {
    /**
     * "List all projects": every project the caller may see (`membership=true`: only those they
     * are a member of). Keyset pagination is offered (`order_by=id` only), so offset pagination
     * stops at GitLab's offset ceiling with a 405 that points to it (pagination.ts).
     */
    method: "GET",
    pattern: "/api/v4/projects",
    operation: "GET /api/v4/projects",
    handler: (ctx) => {
      const caller = requireCaller(ctx);
      const membership = flag(ctx, "membership") === true;
      const projects = filteredProjects(
        ctx,
        [...ctx.world.projects.values()].filter(
          (item) =>
            canSeeProject(ctx, item, caller) &&
            (!membership || ctx.world.accessLevel(item, caller) > 0),
        ),
      );
      if (ctx.query.get("pagination") === "keyset") {
        const simple = flag(ctx, "simple") === true;
        const page = keysetPage(ctx, projects);
        return {
          status: 200,
          body: page.items.map((item) => shownProject(ctx, item, simple)),
          headers: page.headers,
        };
      }
      checkOffset(ctx, "Project");
      return projectPage(ctx, projects);
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id",
    operation: "GET /api/v4/projects/{id}",
    handler: (ctx) => ok(shownProject(ctx, visibleProject(ctx), false)),
  },
  {
    method: "GET",
    pattern: "/api/v4/groups/:id/members",
    operation: "GET /api/v4/groups/{id}/members",
    handler: (ctx) => {
      const group = visibleGroup(ctx, ctx.params.id);
      return memberPage(ctx, group, directMembers(ctx, group));
    },
  },
  {
    /**
     * Direct and inherited members, each once with their highest role (docs: "If a user is a
     * member of this group or project and also of one or more ancestor groups, only its membership
     * with the highest access_level is returned").
     */
    method: "GET",
    pattern: "/api/v4/groups/:id/members/all",
    operation: "GET /api/v4/groups/{id}/members/all",
    handler: (ctx) => {
      const group = visibleGroup(ctx, ctx.params.id);
      return memberPage(ctx, group, ctx.world.effectiveMembers(group));
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/members",
    operation: "GET /api/v4/projects/{id}/members",
    handler: (ctx) => {
      const project = visibleProject(ctx);
      return memberPage(ctx, project, directMembers(ctx, project));
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/members/all",
    operation: "GET /api/v4/projects/{id}/members/all",
    handler: (ctx) => {
      const project = visibleProject(ctx);
      return memberPage(ctx, project, ctx.world.effectiveMembers(project));
    },
  },
];
