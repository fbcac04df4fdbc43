import { attached } from "../../core/attached.js";
import type { GitlabWorld, Project, User } from "../world/records.js";

/**
 * The notes (comments) of a merge request or an issue: GitLab's Notes API serves both the same way
 * (lib/api/notes.rb defines its routes once for each noteable type), so the merge-requests and
 * issues areas each keep their records' notes here and serve them through notes/routes.ts.
 */

export type NoteableType = "MergeRequest" | "Issue";

/** What a note hangs on: a merge request or an issue of a project. */
export interface Noteable {
  /** The global id (`noteable_id` in a note's answer). */
  id: number;
  /** The id within its project (`!1`, `#1`): the notes routes' `:noteable_id`. */
  iid: number;
  project: Project;
}

export interface Note {
  id: number;
  body: string;
  author: User;
  created_at: string;
  updated_at: string;
  noteable: Noteable;
  noteable_type: NoteableType;
}

/** A noteable's notes in creation order (ids only grow). */
export const notesOf = attached((_noteable: Noteable) => [] as Note[]);

/** Note ids are one sequence across the world, as GitLab's `notes.id` is. */
export const noteIds = attached((_world: GitlabWorld) => ({ next: 1 }));

/**
 * GitLab keeps a note's text within `Gitlab::Database::MAX_TEXT_SIZE_LIMIT`, 1,000,000 characters
 * (the Note model's `validates :note, length: { maximum: ... }`; the API answers a longer one
 * `400 Bad request - Note is too long (maximum is 1000000 characters)`, as observed against
 * GitLab.com in the report quoted in docs/service-decisions.md). Issues' descriptions have the same
 * limit ("Description is too long (maximum is 1000000 characters)").
 */
export const MAX_TEXT_SIZE = 1_000_000;
