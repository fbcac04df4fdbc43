import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";

/** A badge of a project or a group (doc/api/project_badges.md, group_badges.md). */
export interface Badge {
  id: number;
  name: string | null;
  link_url: string;
  image_url: string;
}

/** A project's or a group's own badges, in the order they were added. */
export const badgesOf = attached((_owner: Project | Group): Badge[] => []);

/** Badge ids are one sequence across the instance, as GitLab's `badges` table's. */
export const badgeIds = attached((_world: GitlabWorld) => ({ next: 1 }));
