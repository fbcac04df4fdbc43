import { attached } from "../../core/attached.js";
import { teamRole } from "../team/records.js";
import { type Account, higherRole, type Repository, type Role } from "../world/records.js";

/** A repository's collaborators: direct grants by user id. */
export const collaboratorsOf = attached((_repo: Repository) => new Map<number, Role>());

/** The role a collaborator's grant gives on a repository (world/records.ts `Grant`). */
export function directGrant(repo: Repository, user: Account): Role | undefined {
  return collaboratorsOf(repo).get(user.id);
}

/**
 * The role GitHub reports for a user on a repository (a collaborator's `role_name`): "the highest
 * role assigned to the collaborator after considering all sources of grants, including: repo,
 * teams, organization, and enterprise" (GitHub's "List repository collaborators").
 */
export function reportedRole(repo: Repository, user: Account): Role | undefined {
  let best: Role | undefined = collaboratorsOf(repo).get(user.id);
  const raise = (candidate: Role | undefined) => {
    if (candidate === undefined) return;
    best = best === undefined ? candidate : higherRole(best, candidate);
  };
  if (repo.org) {
    if (repo.org.owners.has(user.id)) raise("admin");
    if (repo.org.members.has(user.id) && repo.org.basePermission !== "none") {
      raise(repo.org.basePermission);
    }
    raise(teamRole(repo, user));
  }
  if (repo.owner.id === user.id) raise("admin");
  return best;
}
