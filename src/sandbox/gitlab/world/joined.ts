import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project, Role, User } from "./records.js";

/**
 * When each membership made while the sandbox runs began, so a protection can refuse a member
 * too new to be named (`--gitlab-member-delay`, #40 item 4). GitLab refreshes a project's
 * authorizations asynchronously after a member is added (gitlab-org/gitlab#383666, quoted in
 * gitlabform/gitlabform#521: a protection naming a just-added user "randomly fails with 422
 * {"message":["Push access levels user is not a member of the project"]}"); gitlabform sleeps for
 * it. Memberships of the seed began before the sandbox started: they count at once.
 */
const joinedAt = attached((_record: Group | Project) => new Map<number, number>());

/** Makes the user a direct member of a group or project with `role`, from now on. */
export function addMember(
  world: GitlabWorld,
  record: Group | Project,
  user: User,
  role: Role,
): void {
  record.members.set(user.id, role);
  joinedAt(record).set(user.id, world.now());
}

/**
 * Whether the user is a member of the project, directly or through a group above it, by a
 * membership older than the member delay.
 */
export function settledMember(world: GitlabWorld, project: Project, user: User): boolean {
  const now = world.now();
  const settled = (record: Group | Project) => {
    if (!record.members.has(user.id)) return false;
    const since = joinedAt(record).get(user.id);
    return since === undefined || now - since >= world.memberDelayMs;
  };
  if (settled(project)) return true;
  for (let group: Group | null = project.group; group !== null; group = group.parent) {
    if (settled(group)) return true;
  }
  return false;
}
