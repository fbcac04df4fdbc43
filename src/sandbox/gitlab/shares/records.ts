import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";

/**
 * Who a project or group is shared with: the invited groups by id, each with the level its members
 * get (`group_access`) and when the share ends. GitLab keeps one link per pair (ProjectGroupLink,
 * GroupGroupLink).
 */
export interface Share {
  access: number;
  expiresAt: string | null;
}

export const sharesOf = attached((_record: Project | Group) => new Map<number, Share>());

/** A share as a project's or group's answer lists it (`shared_with_groups`). */
export function sharedWithGroups(world: GitlabWorld, record: Project | Group) {
  return [...sharesOf(record)]
    .sort(([a], [b]) => a - b)
    .flatMap(([id, share]) => {
      const group = world.groups.get(id);
      return group === undefined
        ? []
        : [
            {
              group_id: group.id,
              group_name: group.name,
              group_full_path: group.fullPath,
              group_access_level: share.access,
              expires_at: share.expiresAt,
            },
          ];
    });
}
