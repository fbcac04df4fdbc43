import { minimalRepository, nodeId, simpleUser } from "../world/shapes.js";
import type { Account, GithubWorld, Repository } from "../world/records.js";
import type { Invitation } from "./records.js";

type Json = Record<string, unknown>;

export function invitation(
  base: string,
  world: GithubWorld,
  repo: Repository,
  value: Invitation,
  caller: Account | null,
): Json {
  return {
    id: value.id,
    node_id: nodeId("RepositoryInvitation", value.id),
    repository: minimalRepository(base, world, repo, caller),
    invitee: simpleUser(base, value.invitee),
    inviter: simpleUser(base, value.inviter),
    permissions: value.permissions,
    created_at: value.created_at,
    expired: value.expired,
    url: `${base}/user/repository_invitations/${value.id}`,
    html_url: `${base}/${repo.owner.login}/${repo.name}/invitations`,
  };
}
