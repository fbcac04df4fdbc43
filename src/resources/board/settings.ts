/** How board clean-ups are written: `projects: [{project, boards_absent: [{name | id}]}]`. */
import * as z from "zod";
import { closed, name, pathOrId, positiveId, targetReference } from "../../config/fields.js";
import { defineSection } from "../../config/spec.js";

const board = closed({
  name: name("The board's name.").optional(),
  id: positiveId("The board's id.").optional(),
}).refine((item) => (item.name === undefined) !== (item.id === undefined), {
  error: "give exactly one of name or id",
});

const projectEntry = closed({
  project: pathOrId("The project: numeric id or full path such as acme/api.", "acme/api", true),
  target: targetReference("planning"),
  boards_absent: z
    .array(board.describe("A board that must not exist, by name or id."))
    .min(1)
    .describe("Issue boards that must not exist; they are deleted."),
}).describe("Clean-ups in one project.");

export type ProjectEntry = z.infer<typeof projectEntry>;
export type WantedBoard = ProjectEntry["boards_absent"][number];

/** The board's name in addresses and messages: `#2` by id, else its name. */
export function boardName(wanted: WantedBoard): string {
  return wanted.id !== undefined ? `#${wanted.id}` : wanted.name!;
}

/** An entry as the once-only check and messages name it: `id 2` or `"Legacy triage"`. */
export function entryKey(wanted: WantedBoard): string {
  return wanted.id !== undefined ? `id ${wanted.id}` : `"${wanted.name}"`;
}

/** Numeric ids and paths compare as written; paths case-insensitively. */
function identity(value: string | number): string {
  return typeof value === "number" ? `#${value}` : value.toLowerCase();
}

export const projectsSection = defineSection({
  at: ["projects"],
  entry: projectEntry,
  list: true,
  description: "Planning-side clean-ups per project.",
  targetType: "planning",
  noun: ["project", "projects"],
  scope: (entry) => String(entry.project),
  defines: ({ project, boards_absent }) =>
    boards_absent.map((wanted, index) => {
      const key = entryKey(wanted);
      return {
        id: `${identity(project)}|${key}`,
        path: ["boards_absent", index],
        what: `board ${key} of project ${project}`,
      };
    }),
  print: (entry) =>
    entry.boards_absent.map((wanted, index) => ({
      kind: "board",
      name: boardName(wanted),
      path: ["boards_absent", index],
      fixed: [["must be absent", true]],
    })),
});
