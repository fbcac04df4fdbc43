/**
 * GitLab.com's published request limits, as data, which a planning client paces to when its target
 * has them (`limits: gitlab.com`, or a base URL on gitlab.com). The sandbox keeps its own copy
 * (src/sandbox/gitlab/com-limits.ts): each side is written from GitLab's docs, not from the other.
 *
 * Source: GitLab's docs, "GitLab.com rate limits" (doc/user/gitlab_com/, "Current rate limits"):
 * "Authenticated API traffic (for a given user) 2,000 requests each minute", "Projects list
 * requests (/api/v4/projects) 2,000 requests every 10 minutes", "Group projects requests
 * (/api/v4/groups/:id/projects) 600 requests each minute", "Single project requests
 * (/api/v4/projects/:id) 400 requests each minute", "Groups list requests (/api/v4/groups) 50
 * requests each minute", "Single group requests (/api/v4/groups/:id) 400 requests each minute",
 * "List all project members in a project 200 requests each minute"; the members limit applies for
 * each project (or group) and user, and the group list of all members shares it ("Rate limit on
 * listing group members": "Both the GET /projects/:id/members/all and GET /groups/:id/members/all
 * API endpoints share the same rate limit configuration … Applies for each group and user").
 */

/** Whether a GitLab target is held to GitLab.com's limits, or runs at the configured concurrency. */
export type GitlabLimitsMode = "gitlab.com" | "none";
export const GITLAB_LIMITS_MODES: readonly GitlabLimitsMode[] = ["gitlab.com", "none"];

export interface EndpointLimit {
  /** The endpoint group as plans name it: "GET /api/v4/projects/:id". */
  group: string;
  /** The path below the base URL, `:id` one segment (a number or an encoded full path). */
  pattern: RegExp;
  limit: number;
  windowMs: number;
  /** Counted for each project or group (`:id`) as well as each user. */
  perRecord?: true;
}

const ID = "[^/?]+";

/** The per-endpoint limits; a request matches at most one. Only GET is limited. */
export const GITLAB_COM_ENDPOINT_LIMITS: readonly EndpointLimit[] = [
  {
    group: "GET /api/v4/projects",
    pattern: /^\/api\/v4\/projects$/,
    limit: 2000,
    windowMs: 600_000,
  },
  {
    group: "GET /api/v4/projects/:id",
    pattern: new RegExp(`^/api/v4/projects/${ID}$`),
    limit: 400,
    windowMs: 60_000,
  },
  { group: "GET /api/v4/groups", pattern: /^\/api\/v4\/groups$/, limit: 50, windowMs: 60_000 },
  {
    group: "GET /api/v4/groups/:id",
    pattern: new RegExp(`^/api/v4/groups/${ID}$`),
    limit: 400,
    windowMs: 60_000,
  },
  {
    group: "GET /api/v4/groups/:id/projects",
    pattern: new RegExp(`^/api/v4/groups/${ID}/projects$`),
    limit: 600,
    windowMs: 60_000,
  },
  {
    group: "GET /api/v4/:source/:id/members/all",
    pattern: new RegExp(`^/api/v4/(?:projects|groups)/${ID}/members/all$`),
    limit: 200,
    windowMs: 60_000,
    perRecord: true,
  },
];

/** Every authenticated request of a user, whatever its endpoint. */
export const GITLAB_COM_API_LIMIT = {
  group: "authenticated API",
  limit: 2000,
  windowMs: 60_000,
} as const;

/** Requests outside every per-endpoint group, as plans name them. */
export const OTHER_GROUP = "other";

/** The per-endpoint limit a request is held to, and the key it counts under; undefined if none. */
export function endpointLimitOf(
  method: string,
  path: string,
): { rule: EndpointLimit; key: string } | undefined {
  if (method !== "GET") return undefined;
  const relative = path.split("?")[0] ?? path;
  const rule = GITLAB_COM_ENDPOINT_LIMITS.find((candidate) => candidate.pattern.test(relative));
  if (rule === undefined) return undefined;
  // A project and a group may have the same id: the record is its kind and its id.
  const record = rule.perRecord ? ` ${relative.split("/").slice(3, 5).join("/")}` : "";
  return { rule, key: `${rule.group}${record}` };
}

/** The endpoint group a request counts in for the budget line: its limit's group, or "other". */
export function endpointGroupOf(method: string, path: string): string {
  return endpointLimitOf(method, path)?.rule.group ?? OTHER_GROUP;
}

/**
 * Whether a target has GitLab.com's limits: as its configuration says (`limits`), else by its
 * host — gitlab.com has them; a self-managed instance sets its own ("Rate limits",
 * doc/security/rate_limits.md, "By User or IP": "Default rate limit - Disabled by default"), so
 * forgeplan runs there at the configured concurrency.
 */
export function gitlabLimitsOf(baseUrl: string, given?: GitlabLimitsMode): GitlabLimitsMode {
  if (given !== undefined) return given;
  return new URL(baseUrl).hostname.toLowerCase() === "gitlab.com" ? "gitlab.com" : "none";
}
