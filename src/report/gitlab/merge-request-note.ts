import * as z from "zod";
import type { ForgeClient } from "../../forge/client.js";
import type { NoteResult } from "../ci/host.js";
import { shapedList } from "../shaped-list.js";
import { startsWithLine } from "../sticky-comment.js";
import { type GitlabUser, gitlabUser, projectPath, shaped } from "./api.js";

/**
 * The sticky merge-request note: one per merge request and configuration, found by the marker it
 * starts with and the account that wrote it, created once and then edited in place through the
 * Notes API (doc/api/notes.md: "Create new merge request note", `POST
 * /projects/:id/merge_requests/:merge_request_iid/notes`; "Modify existing merge request note",
 * `PUT …/notes/:note_id`).
 */

/**
 * GitLab refuses a note longer than 1,000,000 characters (`Gitlab::Database::MAX_TEXT_SIZE_LIMIT`,
 * which the Note model validates: "Note is too long (maximum is 1000000 characters)").
 */
export const GITLAB_NOTE_LIMIT = 1_000_000;

/** The members of GitLab's note entity the sticky note needs. */
const noteShape = {
  name: "notes",
  schema: z.object({
    id: z.number().int().positive(),
    body: z.string().nullish(),
    author: gitlabUser.nullable(),
    system: z.boolean(),
  }),
};
type Note = z.infer<typeof noteShape.schema>;

const mergeRequestShape = z.object({ iid: z.number().int().positive(), web_url: z.string() });

export interface MergeRequestRef {
  /** The project's id or full path. */
  project: string;
  iid: number;
}

function notesPath(ref: MergeRequestRef): string {
  return `${projectPath(ref.project)}/merge_requests/${ref.iid}/notes`;
}

/**
 * The notes of the merge request that start with `marker` and that `author` wrote, oldest first:
 * GitLab lists notes newest first unless asked (`sort` defaults to `desc`, lib/api/notes.rb), and
 * system notes ("added 1 commit") are never ours.
 */
export async function ownNotes(
  client: ForgeClient,
  ref: MergeRequestRef,
  marker: string,
  author: GitlabUser,
): Promise<Array<{ id: number; body: string }>> {
  const notes = await shapedList(client, notesPath(ref), noteShape, {
    order_by: "created_at",
    sort: "asc",
  });
  return notes
    .filter(
      (note: Note) =>
        !note.system && note.author?.id === author.id && startsWithLine(note.body ?? "", marker),
    )
    .map((note) => ({ id: note.id, body: note.body ?? "" }))
    .sort((a, b) => a.id - b.id);
}

/** The merge request's page, where a note's anchor (`#note_ID`) points. */
async function mergeRequestUrl(client: ForgeClient, ref: MergeRequestRef): Promise<string> {
  const path = `${projectPath(ref.project)}/merge_requests/${ref.iid}`;
  return shaped(await client.get<unknown>(path), mergeRequestShape, "GET", path, "merge request")
    .web_url;
}

/**
 * Creates the note, or edits the existing one. Two pipelines of one merge request (two pushes close
 * together) can each find no note and each create one; as on GitHub (sticky-comment.ts keepOldest),
 * each then agrees on the oldest, moves its body there and deletes its own, so one note is left.
 */
export async function upsertMergeRequestNote(
  client: ForgeClient,
  ref: MergeRequestRef,
  marker: string,
  author: GitlabUser,
  body: string,
): Promise<NoteResult> {
  const page = await mergeRequestUrl(client, ref);
  const url = (id: number) => `${page}#note_${id}`;
  const [existing] = await ownNotes(client, ref, marker, author);
  if (existing !== undefined) {
    if (existing.body === body) return { action: "unchanged", url: url(existing.id) };
    await client.request("PUT", `${notesPath(ref)}/${existing.id}`, { body: { body } });
    return { action: "updated", url: url(existing.id) };
  }
  const path = notesPath(ref);
  const created = shaped(
    (await client.request<unknown>("POST", path, { body: { body } })).data,
    noteShape.schema,
    "POST",
    path,
    "note",
  );
  const warning =
    created.author !== null && created.author.id !== author.id
      ? `the note was written as ${created.author.username}, not ${author.username}: the next run will not find it`
      : undefined;
  const [oldest] = await ownNotes(client, ref, marker, author);
  if (oldest === undefined || oldest.id >= created.id) {
    return { action: "created", url: url(created.id), ...(warning ? { warning } : {}) };
  }
  // The body goes to the oldest first, so a delete that fails leaves a duplicate, never a loss.
  if (oldest.body !== body) {
    await client.request("PUT", `${path}/${oldest.id}`, { body: { body } });
  }
  await client.request("DELETE", `${path}/${created.id}`);
  return { action: "updated", url: url(oldest.id) };
}
