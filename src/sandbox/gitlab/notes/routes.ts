import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  gitlabPageReply,
  idParam,
  isoTime,
  ok,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { visibleProject } from "../world/access.js";
import {
  MAX_TEXT_SIZE,
  type Note,
  noteIds,
  type Noteable,
  type NoteableType,
  notesOf,
} from "./records.js";
import { note } from "./shapes.js";

/**
 * The Notes API of one noteable type (doc/api/notes.md; lib/api/notes.rb, which defines the same
 * routes for issues and merge requests): list, create, edit and delete a note.
 */
export interface NoteableKind {
  type: NoteableType;
  /** The path segment: `merge_requests`, `issues`. */
  segment: string;
  /** GitLab's name of the path parameter in its documentation: `merge_request_iid`, `issue_iid`. */
  iidName: string;
  /** What a missing noteable is called in the 404 (`404 Merge Request Not Found`). */
  missing: string;
  find(ctx: RequestContext, iid: number): Noteable | undefined;
}

function noteableOf(ctx: RequestContext, kind: NoteableKind): Noteable {
  visibleProject(ctx);
  const iid = idParam(ctx.params.noteable);
  const found = iid === undefined ? undefined : kind.find(ctx, iid);
  if (found === undefined) throw gitlabNotFound(kind.missing);
  return found;
}

function noteOf(ctx: RequestContext, noteable: Noteable): Note {
  const id = idParam(ctx.params.note);
  const found = notesOf(noteable).find((item) => item.id === id);
  // `noteable.notes.find(note_id)` raises RecordNotFound, which the API answers `404 Not found`.
  if (found === undefined) throw gitlabNotFound("Note Not Found");
  return found;
}

/**
 * A note's text as the Note model validates it: present and at most MAX_TEXT_SIZE characters,
 * refused as `process_note_creation_result` refuses an invalid note:
 * `bad_request!("Note #{note.errors.messages}")` (lib/api/helpers/notes_helpers.rb), the errors
 * hash as Ruby prints it.
 */
function checkedBody(value: string): string {
  // Rails counts characters; a JavaScript string's length counts UTF-16 units.
  const length = [...value].length;
  if (value.trim() === "") {
    throw gitlabError(400, `400 Bad request - Note {:note=>["can't be blank"]}`);
  }
  if (length > MAX_TEXT_SIZE) {
    throw gitlabError(
      400,
      `400 Bad request - Note {:note=>["is too long (maximum is ${MAX_TEXT_SIZE} characters)"]}`,
    );
  }
  return value;
}

/**
 * Who may edit or delete a note: `authorize! :admin_note, note` (notes_helpers.rb update_note,
 * delete_note), which GitLab's NotePolicy grants the note's author (and administrators).
 */
function mayAdminister(ctx: RequestContext, found: Note): boolean {
  const caller = requireCaller(ctx);
  return caller.admin || caller.id === found.author.id;
}

export function noteRoutes(kind: NoteableKind): Route[] {
  const base = `/api/v4/projects/:id/${kind.segment}/:noteable/notes`;
  const template = `/api/v4/projects/{id}/${kind.segment}/{${kind.iidName}}/notes`;
  return [
    {
      method: "GET",
      pattern: base,
      operation: `GET ${template}`,
      handler: (ctx) => {
        const noteable = noteableOf(ctx, kind);
        const { order_by: orderBy, sort } = parameters(ctx);
        // Defaults `order_by=created_at`, `sort=desc` (lib/api/notes.rb); ids break ties.
        const key = orderBy === "updated_at" ? "updated_at" : "created_at";
        const direction = sort === "asc" ? 1 : -1;
        const notes = [...notesOf(noteable)].sort(
          (a, b) => direction * (a[key].localeCompare(b[key]) || a.id - b.id),
        );
        return gitlabPageReply(ctx, notes, (item) => note(ctx.base, item));
      },
    },
    {
      method: "GET",
      pattern: `${base}/:note`,
      operation: `GET ${template}/{note_id}`,
      handler: (ctx) => ok(note(ctx.base, noteOf(ctx, noteableOf(ctx, kind)))),
    },
    {
      method: "POST",
      pattern: base,
      operation: `POST ${template}`,
      handler: (ctx) => {
        const caller = requireCaller(ctx);
        const noteable = noteableOf(ctx, kind);
        // `authorize!(:create_note, noteable)`: anyone with a role in the project may comment.
        if (!ctx.world.hasRole(noteable.project, caller, "guest")) throw gitlabForbidden();
        const { body } = parameters(ctx);
        if (body === undefined || body === null) throw gitlabBadParameter("body is missing");
        if (typeof body !== "string") throw gitlabBadParameter("body is invalid");
        const now = isoTime(ctx.now());
        const created: Note = {
          id: noteIds(ctx.world).next++,
          body: checkedBody(body),
          author: caller,
          created_at: now,
          updated_at: now,
          noteable,
          noteable_type: kind.type,
        };
        notesOf(noteable).push(created);
        return ok(note(ctx.base, created), 201);
      },
    },
    {
      method: "PUT",
      pattern: `${base}/:note`,
      operation: `PUT ${template}/{note_id}`,
      handler: (ctx) => {
        const found = noteOf(ctx, noteableOf(ctx, kind));
        if (!mayAdminister(ctx, found)) throw gitlabForbidden();
        const { body } = parameters(ctx);
        if (body !== undefined) {
          // `optional :body, type: String, allow_blank: false` (lib/api/notes.rb).
          if (typeof body !== "string") throw gitlabBadParameter("body is invalid");
          if (body.trim() === "") throw gitlabBadParameter("body is empty");
          found.body = checkedBody(body);
          found.updated_at = isoTime(ctx.now());
        }
        return ok(note(ctx.base, found));
      },
    },
    {
      method: "DELETE",
      pattern: `${base}/:note`,
      operation: `DELETE ${template}/{note_id}`,
      handler: (ctx) => {
        const noteable = noteableOf(ctx, kind);
        const found = noteOf(ctx, noteable);
        if (!mayAdminister(ctx, found)) throw gitlabForbidden();
        const notes = notesOf(noteable);
        notes.splice(notes.indexOf(found), 1);
        return { status: 204 };
      },
    },
  ];
}
