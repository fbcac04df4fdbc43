import { attached } from "../../core/attached.js";
import type { Label } from "../labels/records.js";
import type { Account, GithubWorld } from "../world/records.js";
import type { Repository } from "../world/records.js";

/** Issues and their comments (drift issues and pull-request comments; pull requests share the numbers). */
export interface Issue {
  id: number;
  number: number;
  repo: Repository;
  title: string;
  body: string | null;
  state: "open" | "closed";
  state_reason: "completed" | "not_planned" | "duplicate" | "reopened" | null;
  user: Account;
  /**
   * The repository's labels it carries, the records themselves (see Label); read through
   * `liveLabels`, as a label the repository no longer has is off it.
   */
  labels: Label[];
  comments: IssueComment[];
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: Account | null;
  /** Set when the issue is a pull request, which shares the repository's issue numbers. */
  pull?: PullRequest;
}

/** A pull request: its issue (number, title, state, comments) and the branches it merges. */
export interface PullRequest {
  id: number;
  issue: Issue;
  head: { ref: string; sha: string };
  /** The base branch, and its head commit when the pull request was opened. */
  base: { ref: string; sha: string };
  merged_at: string | null;
  merged_by: Account | null;
  /** The commit the merge made on the base branch. */
  merge_commit_sha: string | null;
}

export interface IssueComment {
  id: number;
  issue: Issue;
  body: string;
  user: Account;
  created_at: string;
  updated_at: string;
}

/**
 * Issues by repository id, in number order (numbers start at 1 per repository), comments by id,
 * and the next ids.
 */
export const issuesOf = attached((_world: GithubWorld) => ({
  byRepository: new Map<number, Issue[]>(),
  comments: new Map<number, IssueComment>(),
  nextId: { issue: 1, comment: 1, pull: 1 },
}));
