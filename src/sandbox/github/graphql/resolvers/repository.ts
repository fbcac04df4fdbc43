import type { Repository } from "../../world/records.js";
import { type GraphqlContext, fullName } from "../context.js";
import { notFoundRepository } from "../errors.js";
import { nodeId } from "../ids.js";
import { accountObject } from "./actors.js";

/**
 * `Query.repository` and the `Repository` type: its own fields, and those of each area (protections,
 * rulesets …) from the area's GraphQL part (github/area.ts `graphql`). A repository the caller may not see is `null` with GitHub's
 * NOT_FOUND error, as one that does not exist, so an alias's error is that repository's alone.
 * Fields the sandbox does not model answer null (an error where the schema says non-null).
 */

/** GitHub's `RepositoryPermission` for a repository role. */
const PERMISSION: Record<string, string | null> = {
  none: null,
  pull: "READ",
  triage: "TRIAGE",
  push: "WRITE",
  maintain: "MAINTAIN",
  admin: "ADMIN",
};

export function repositoryObject(ctx: GraphqlContext, repo: Repository) {
  const permission = ctx.world.permission(repo, ctx.caller);
  return {
    __typename: "Repository",
    id: nodeId("Repository", repo.id),
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: fullName(repo),
    owner: accountObject(ctx, repo.owner),
    description: repo.description,
    isPrivate: repo.private,
    visibility: repo.private ? "PRIVATE" : "PUBLIC",
    isFork: false,
    createdAt: repo.created_at,
    updatedAt: repo.updated_at,
    url: `${ctx.base}/${fullName(repo)}`,
    resourcePath: `/${fullName(repo)}`,
    squashMergeAllowed: repo.allow_squash_merge,
    rebaseMergeAllowed: repo.allow_rebase_merge,
    mergeCommitAllowed: repo.allow_merge_commit,
    viewerCanAdminister: permission === "admin",
    viewerPermission: PERMISSION[permission] ?? null,
    ...Object.assign({}, ...ctx.parts.map((part) => part.repository?.(ctx, repo))),
  };
}

/** The repository, if the caller may see it; else GitHub's NOT_FOUND. */
export function visibleRepository(ctx: GraphqlContext, owner: string, name: string): Repository {
  const repo = ctx.world.repository(owner, name);
  if (!repo || !ctx.world.can(repo, ctx.caller, "pull")) throw notFoundRepository(owner, name);
  return repo;
}

export function repositoryRoot(ctx: GraphqlContext) {
  return {
    repository: ({ owner, name }: { owner: string; name: string }) =>
      repositoryObject(ctx, visibleRepository(ctx, owner, name)),
  };
}
