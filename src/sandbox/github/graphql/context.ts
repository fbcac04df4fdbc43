import type { AppPermissionLevel, Account, Repository, GithubWorld } from "../world/records.js";
import { forbidden } from "./errors.js";

/** What every resolver of one GraphQL request sees. */
export interface GraphqlContext {
  world: GithubWorld;
  caller: Account | null;
  /** The sandbox's own address, for `url` fields. */
  base: string;
  /** The `rateLimit` object of this request: its cost and the budget after it. */
  rateLimit: () => Record<string, unknown>;
  /** Every area's part of the schema. */
  parts: readonly GraphqlPart[];
}

/** An area's part of the GraphQL schema (github/area.ts `graphql`). */
export interface GraphqlPart {
  /** Fields of a `Repository` object, for a repository the caller may see. */
  repository?(ctx: GraphqlContext, repo: Repository): Record<string, unknown>;
  /** `node(id:)` objects of a type, by the key of their id; null when the caller may not see one. */
  nodes?: Readonly<Record<string, (ctx: GraphqlContext, key: string) => unknown>>;
}

const RANK: Record<AppPermissionLevel, number> = { read: 1, write: 2, admin: 3 };

/**
 * Whether the caller may read what takes an App permission: anyone but an installation may (their
 * repository role decides), an installation when its App holds the permission at that level.
 * GitHub answers FORBIDDEN "Resource not accessible by integration" at the field otherwise
 * (fpicalausa/remove-stale-branches#49).
 */
export function requireAppPermission(
  ctx: GraphqlContext,
  permission: string,
  level: AppPermissionLevel,
): void {
  const installation = ctx.caller?.installation;
  if (installation === undefined) return;
  const held = installation.permissions[permission];
  if (held === undefined || RANK[held] < RANK[level]) {
    throw forbidden("Resource not accessible by integration");
  }
}

/** The repository's `owner/name`, as GraphQL's `nameWithOwner` gives it. */
export function fullName(repo: Repository): string {
  return `${repo.owner.login}/${repo.name}`;
}
