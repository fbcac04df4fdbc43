/** How board clean-ups are written: `projects: [{project, boards_absent: [{name | id}]}]`. */
import * as z from "zod";
import { closed, name, positiveId } from "../../config/fields.js";
import { defineSetting } from "../../config/spec.js";

const board = closed({
  name: name("The board's name.").optional(),
  id: positiveId("The board's id.").optional(),
}).refine((item) => (item.name === undefined) !== (item.id === undefined), {
  error: "give exactly one of name or id",
});

const boardsAbsent = z
  .array(board.describe("A board that must not exist, by name or id."))
  .min(1)
  .describe("Issue boards of the project that must not exist; they are deleted.");

export type WantedBoard = z.output<typeof boardsAbsent>[number];

/** The board's name in addresses and messages: `#2` by id, else its name. */
export function boardName(wanted: WantedBoard): string {
  return wanted.id !== undefined ? `#${wanted.id}` : wanted.name!;
}

/** An entry as the once-only check and messages name it: `id 2` or `"Legacy triage"`. */
export function entryKey(wanted: WantedBoard): string {
  return wanted.id !== undefined ? `id ${wanted.id}` : `"${wanted.name}"`;
}

export const boardsAbsentSetting = defineSetting({
  key: "boards_absent",
  schema: boardsAbsent,
  // One list per project: entries' lists replace each other when merged (a named entry's
  // replaces a glob's), so two entries naming the project cannot both write one.
  defines: () => [{ id: "boards_absent", path: [], what: "the boards_absent list" }],
  print: (value) =>
    value.map((wanted, index) => ({
      kind: "board",
      name: boardName(wanted),
      path: [index],
      means: [["must be absent", true]],
    })),
});
