import { selectedName } from "../../config/glob.js";
import { type Change, newChange } from "../../core/plan.js";
import { changeError, type RepoRef, type ResourceReader } from "../context.js";
import { fingerprint } from "../fingerprint.js";
import { projectPath } from "../gitlab-paths.js";
import { type ListedBoard, readBoard } from "./canonical.js";
import { boardName, entryKey, type WantedBoard } from "./settings.js";

/** Issue boards that must not exist in a project: a clean-up, so the only action is delete. */

/** "ids 2, 5": the boards a message names. */
function idList(boards: readonly ListedBoard[]): string {
  return `${boards.length === 1 ? "id" : "ids"} ${boards.map((found) => found.id).join(", ")}`;
}

/**
 * What each wanted board resolves to among the listed ones: the one board it names, or why it
 * names none for sure. GitLab does not keep board names unique (app/models/board.rb validates
 * presence only, and sorts "no matter how many other boards are named the same"), and names are
 * compared as written: "Dev" and "dev" are two boards. A name that two boards carry is refused as
 * ambiguous rather than resolved to one of them or all: deleting by a name the user believed unique
 * could remove a board they never meant, so they pick by id.
 */
function resolve(
  wanted: WantedBoard,
  listed: readonly ListedBoard[],
  scope: string,
): ListedBoard | undefined | string {
  if (wanted.id !== undefined) return listed.find((candidate) => candidate.id === wanted.id);
  const named = listed.filter((candidate) => candidate.name === wanted.name);
  if (named.length <= 1) return named[0];
  return `${named.length} boards of project ${scope} are named "${wanted.name}" (${idList(named)}): name the one to delete by id`;
}

export async function planBoards(
  reader: ResourceReader,
  project: RepoRef,
  absent: readonly WantedBoard[],
): Promise<Change[]> {
  const scope = selectedName(project.owner, project.name);
  const path = `${projectPath(project)}/boards`;
  const listed = await reader.list(path, undefined, { name: "issue boards", schema: readBoard });
  const changes = absent.map((wanted) =>
    newChange(reader.target, scope, "board", boardName(wanted)),
  );
  if (listed.kind === "error") return changes.map((change) => ({ ...change, error: listed.error }));
  if (listed.kind === "absent") {
    const error = changeError(`project ${scope} was not found`, "GET", path, 404);
    return changes.map((change) => ({ ...change, error }));
  }
  const boards = listed.data;
  const resolved = absent.map((wanted) => resolve(wanted, boards, scope));
  const deleted = new Map<number, number>();
  resolved.forEach((found, index) => {
    if (typeof found === "object" && !deleted.has(found.id)) deleted.set(found.id, index);
  });
  // GitLab keeps a project's last board: its DELETE answers 204 and keeps it (Boards::DestroyService
  // refuses when the parent has one board; the API's destroy_conditionally! has already set 204).
  // Clean-ups that would delete every board are refused as a whole: which one GitLab kept would
  // depend on the order the deletes arrive in.
  const everyBoard = boards.length > 0 && deleted.size === boards.length;
  return changes.map((change, index) => {
    const found = resolved[index];
    if (typeof found === "string") return { ...change, error: changeError(found) };
    if (found === undefined) return { ...change, live_fingerprint: fingerprint(null) };
    const first = deleted.get(found.id);
    if (first !== index) {
      const other = absent[first ?? 0]!;
      return {
        ...change,
        error: changeError(
          `names the same board (id ${found.id}) as the entry ${entryKey(other)}: list it once`,
        ),
      };
    }
    if (everyBoard) {
      return {
        ...change,
        error: changeError(
          `would delete every board of project ${scope} (${idList(boards)}), and GitLab keeps a project's last board: leave one of them out`,
        ),
      };
    }
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
