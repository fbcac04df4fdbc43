import type { Account, GithubWorld } from "../world/records.js";
import { nodeId, repository, simpleUser } from "../world/shapes.js";
import type { Migration } from "./records.js";

type Json = Record<string, unknown>;

export function migrationUrl(base: string, value: Migration): string {
  return value.owner.type === "Organization"
    ? `${base}/orgs/${value.owner.login}/migrations/${value.id}`
    : `${base}/user/migrations/${value.id}`;
}

export function migration(
  base: string,
  world: GithubWorld,
  value: Migration,
  caller: Account,
  { withRepositories }: { withRepositories: boolean },
): Json {
  const url = migrationUrl(base, value);
  return {
    id: value.id,
    node_id: nodeId("Migration", value.id),
    owner: simpleUser(base, value.owner),
    guid: `0b989ba4-242f-11e5-81e1-${String(value.id).padStart(12, "0")}`,
    state: value.state,
    lock_repositories: value.lock_repositories,
    exclude_metadata: value.exclude_metadata,
    exclude_git_data: value.exclude_git_data,
    exclude_attachments: value.exclude_attachments,
    exclude_releases: value.exclude_releases,
    exclude_owner_projects: value.exclude_owner_projects,
    org_metadata_only: value.org_metadata_only,
    ...(withRepositories
      ? { repositories: value.repositories.map((repo) => repository(base, world, repo, caller)) }
      : {}),
    url,
    created_at: value.created_at,
    updated_at: value.updated_at,
    ...(value.state === "exported" ? { archive_url: `${url}/archive` } : {}),
  };
}
