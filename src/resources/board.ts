import * as z from "zod";
import { closed, name, pathOrId, positiveId, targetReference } from "../config/fields.js";
import { type Change, newChange } from "../core/plan.js";
import { changeError, mustFind, type ResourceReader } from "./context.js";
import { fingerprint } from "./fingerprint.js";
import type { KindModule } from "./kind.js";

/** Issue boards that must not exist in a project: a clean-up, so the only action is delete. */

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

type ProjectEntry = z.infer<typeof projectEntry>;
type WantedBoard = ProjectEntry["boards_absent"][number];

const readBoard = z.looseObject({ id: z.number().int(), name: z.string().optional() });

export function projectPath(project: string | number): string {
  return `/api/v4/projects/${encodeURIComponent(String(project))}`;
}

/** The board's name in addresses and messages: `#2` by id, else its name. */
function boardName(wanted: WantedBoard): string {
  return wanted.id !== undefined ? `#${wanted.id}` : wanted.name!;
}

/** Numeric ids and paths compare as written; paths case-insensitively. */
function identity(value: string | number): string {
  return typeof value === "number" ? `#${value}` : value.toLowerCase();
}

export async function planBoards(reader: ResourceReader, entry: ProjectEntry): Promise<Change[]> {
  const scope = String(entry.project);
  const path = `${projectPath(entry.project)}/boards`;
  const listed = await reader.list(path, undefined, { name: "issue boards", schema: readBoard });
  return entry.boards_absent.map((wanted) => {
    const change: Change = newChange(reader.target, scope, "board", boardName(wanted));
    if (listed.kind === "error") return { ...change, error: listed.error };
    if (listed.kind === "absent") {
      return { ...change, error: changeError(`project ${scope} was not found`, "GET", path, 404) };
    }
    const found = listed.data.find((candidate) =>
      wanted.id !== undefined ? candidate.id === wanted.id : candidate.name === wanted.name,
    );
    if (!found) return { ...change, live_fingerprint: fingerprint(null) };
    const live = { id: found.id, name: found.name ?? "" };
    return {
      ...change,
      action: "delete",
      diff: [{ path: "board", before: live }],
      requests: [{ method: "DELETE", path: `${path}/${found.id}` }],
      live_fingerprint: fingerprint(live),
    };
  });
}

export const boardKind: KindModule = {
  name: "board",
  section: {
    spec: {
      at: ["projects"],
      entry: projectEntry,
      list: true,
      description: "Planning-side clean-ups per project.",
      targetType: "planning",
      noun: ["project", "projects"],
      scope: (entry) => String((entry as ProjectEntry).project),
      defines: (entry) => {
        const { project, boards_absent } = entry as ProjectEntry;
        return boards_absent.map((wanted, index) => {
          const key = wanted.id !== undefined ? `id ${wanted.id}` : `"${wanted.name}"`;
          return {
            id: `${identity(project)}|${key}`,
            path: ["boards_absent", index],
            what: `board ${key} of project ${project}`,
          };
        });
      },
      print: (entry) =>
        (entry as ProjectEntry).boards_absent.map((wanted, index) => ({
          kind: "board",
          name: boardName(wanted),
          path: ["boards_absent", index],
          fixed: [["must be absent", true]],
        })),
    },
    plan: async ({ reader, entry }) => ({
      changes: await planBoards(reader, entry as ProjectEntry),
    }),
    // Clean-ups name what must not exist, so live boards are listed as comments to pick from.
    export: async (reader, project) => {
      const path = `${projectPath(project)}/boards`;
      const boards = mustFind(
        await reader.list(path, undefined, { name: "issue boards", schema: readBoard }),
        path,
      );
      const listed = boards.map((found) => `${found.id} "${found.name ?? ""}"`).join(", ");
      return {
        entries: [],
        comments: [
          `project ${project} boards (name any under projects[].boards_absent to delete it): ${listed || "none"}`,
        ],
      };
    },
  },
};
