import { attached } from "../../core/attached.js";
import type { Noteable } from "../notes/records.js";
import type { GitlabWorld, Project, User } from "../world/records.js";

/** A project's issue, as far as CI steps use one (forgeplan ci's drift issue). */
export interface Issue extends Noteable {
  title: string;
  description: string;
  state: "opened" | "closed";
  /** Label names in the order given. */
  labels: string[];
  author: User;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: User | null;
}

/** A project's issues by iid. */
export const issuesOf = attached((_project: Project) => new Map<number, Issue>());

/** Issue ids are one sequence across the world; iids are per project. */
export const issueIds = attached((_world: GitlabWorld) => ({ next: 1 }));
