import { planningUser } from "../world/shapes.js";
import type { Note } from "./records.js";

/**
 * A note as the Notes API answers it (Entities::Note; doc/api/notes.md, "List all merge request
 * notes" example response): a note has no `web_url` of its own there.
 */
export function note(base: string, value: Note): Record<string, unknown> {
  return {
    id: value.id,
    type: null,
    body: value.body,
    attachment: null,
    author: planningUser(base, value.author),
    created_at: value.created_at,
    updated_at: value.updated_at,
    system: false,
    noteable_id: value.noteable.id,
    noteable_type: value.noteable_type,
    project_id: value.noteable.project.id,
    noteable_iid: value.noteable.iid,
    resolvable: false,
    confidential: false,
    internal: false,
    imported: false,
    imported_from: "none",
    commands_changes: {},
  };
}
