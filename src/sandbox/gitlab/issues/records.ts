import { attached } from "../../core/attached.js";
import type { Label } from "../labels/records.js";
import type { Noteable } from "../notes/records.js";
import type { GitlabWorld, Project, User } from "../world/records.js";

/**
 * A project's issue: what CI steps use (forgeplan ci's drift issue) and the labels it carries. The
 * one record of an issue in the sandbox: the labels area counts these and takes a deleted label
 * off them.
 */
export interface Issue extends Noteable {
  title: string;
  description: string;
  state: "opened" | "closed";
  /**
   * The labels area's records themselves (GitLab's `label_links`), so a label renamed in place
   * stays on the issue and a deleted one leaves it.
   */
  labels: Label[];
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
