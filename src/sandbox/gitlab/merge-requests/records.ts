import { attached } from "../../core/attached.js";
import type { Label } from "../labels/records.js";
import type { Noteable } from "../notes/records.js";
import type { GitlabWorld, Project, User } from "../world/records.js";

/**
 * A project's merge request: its state, commits and notes (what CI steps use) and the labels it
 * carries. The one record of a merge request in the sandbox: the labels area counts these and
 * takes a deleted label off them.
 */
export interface MergeRequest extends Noteable {
  title: string;
  description: string;
  state: "opened" | "closed" | "merged" | "locked";
  source_branch: string;
  target_branch: string;
  /** The source branch's head commit. */
  sha: string;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
  /** The labels area's records themselves (GitLab's `label_links`), as an issue's. */
  labels: Label[];
  author: User;
  merged_by: User | null;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
}

/** A project's merge requests by iid. */
export const mergeRequestsOf = attached((_project: Project) => new Map<number, MergeRequest>());

/** Merge request ids are one sequence across the world; iids are per project (their max + 1). */
export const mergeRequestIds = attached((_world: GitlabWorld) => ({ next: 1 }));
