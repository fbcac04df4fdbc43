import * as z from "zod";
import type { ProjectEntry } from "../config/model.js";
import type { Change } from "../core/plan.js";
import { changeError, newChange, type ResourceReader } from "./context.js";
import { fingerprint } from "./fingerprint.js";

/** Issue boards that must not exist in a project: a clean-up, so the only action is delete. */
const readBoard = z.looseObject({ id: z.number().int(), name: z.string().optional() });

export function projectPath(project: string | number): string {
  return `/api/v4/projects/${encodeURIComponent(String(project))}`;
}

export async function planBoards(reader: ResourceReader, entry: ProjectEntry): Promise<Change[]> {
  const scope = String(entry.project);
  const path = `${projectPath(entry.project)}/boards`;
  const listed = await reader.list(path, undefined, { name: "issue boards", schema: readBoard });
  return entry.boardsAbsent.map((wanted) => {
    const name = "id" in wanted ? `#${wanted.id}` : wanted.name;
    const change: Change = newChange(reader.target, scope, "board", name);
    if (listed.kind === "error") return { ...change, error: listed.error };
    if (listed.kind === "absent") {
      return { ...change, error: changeError(`project ${scope} was not found`, "GET", path, 404) };
    }
    const board = listed.data.find((candidate) =>
      "id" in wanted ? candidate.id === wanted.id : candidate.name === wanted.name,
    );
    if (!board) return { ...change, live_fingerprint: fingerprint(null) };
    const live = { id: board.id, name: board.name ?? "" };
    return {
      ...change,
      action: "delete",
      diff: [{ path: "board", before: live }],
      requests: [{ method: "DELETE", path: `${path}/${board.id}` }],
      live_fingerprint: fingerprint(live),
    };
  });
}
