import { selectedName } from "../../config/glob.js";
import { changeError, type RepoRef, type ResourceReader } from "../context.js";
import { projectPath } from "../gitlab-paths.js";
import type { Location } from "../kind.js";
import { type ProjectAnswer, projectAnswer } from "./canonical.js";

/**
 * Finds the project an entry names: under its full path, or — when the entry lists `previously` —
 * under one of its previous full paths. GitLab answers a project's old path with the project
 * itself after a rename or a transfer (lib/api/helpers.rb `find_project`:
 * `find_by_full_path(id, follow_redirects: true)`), so every answer is told apart by its
 * `path_with_namespace`: a path that is the project's own now, or one that redirects to it. Two
 * projects are an error naming both, never a guess (terraform-provider-github#58 took over a
 * repository that reused a name; the same holds for a reused GitLab path).
 */

interface Found {
  /** The path read. */
  path: string;
  answer: ProjectAnswer;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isOwn = (found: Found) => same(found.answer.path_with_namespace, found.path);

/** A full path as a reference: the namespace's path and the project's. */
export function refOf(fullPath: string): RepoRef {
  const cut = fullPath.lastIndexOf("/");
  return { owner: fullPath.slice(0, cut), name: fullPath.slice(cut + 1) };
}

function found(at: RepoRef, wanted: RepoRef, answer: ProjectAnswer): Location {
  return { kind: "found", at, wanted, archived: answer.archived === true, answer };
}

export async function locateProject(input: {
  reader: ResourceReader;
  project: RepoRef;
  previously: readonly string[];
  listed?: { archived: boolean };
}): Promise<Location> {
  const { reader, project: wanted, previously, listed } = input;
  const scope = selectedName(wanted.owner, wanted.name);
  // A listing found it under its path: it is read only to tell its previous paths apart.
  if (listed !== undefined && previously.length === 0) {
    return { kind: "found", at: wanted, wanted, archived: listed.archived };
  }
  const error = (message: string, path: string, status: number): Location => ({
    kind: "error",
    wanted,
    error: changeError(message, "GET", projectPath(path), status),
  });
  const own = await reader.getOrAbsent(projectPath(wanted), projectAnswer);
  if (own.kind === "error") return { kind: "error", wanted, error: own.error };
  // A project named by id is where its id is; it has no previous paths to look under.
  if (wanted.owner === "") {
    return own.kind === "found" ? found(wanted, wanted, own.data) : { kind: "absent", wanted };
  }
  const earlier: Found[] = [];
  for (const path of previously) {
    const read = await reader.getOrAbsent(projectPath(path), projectAnswer);
    if (read.kind === "error") return { kind: "error", wanted, error: read.error };
    if (read.kind === "found") earlier.push({ path, answer: read.data });
  }
  const mine = own.kind === "found" ? { path: scope, answer: own.data } : undefined;
  if (mine !== undefined && isOwn(mine)) {
    const other = earlier.find((candidate) => candidate.answer.id !== mine.answer.id);
    if (other !== undefined) {
      return error(
        `${scope} and ${other.answer.path_with_namespace} are two projects (ids ${mine.answer.id} and ${other.answer.id}); previously lists ${other.path}, which is not this project's old path: remove it from previously or move one of them — forgeplan does not guess which is meant`,
        other.path,
        200,
      );
    }
    return found(wanted, wanted, mine.answer);
  }
  // Not under its path: under a previous one that is still a project's own (not a redirect).
  const under = earlier.filter(isOwn);
  const ids = new Set(under.map((candidate) => candidate.answer.id));
  if (ids.size > 1) {
    const named = under.map((candidate) => `${candidate.path} (id ${candidate.answer.id})`);
    return error(
      `${scope} is not found, and its previous paths are ${ids.size} projects: ${named.join(", ")} — forgeplan does not guess which to move`,
      scope,
      404,
    );
  }
  const [there] = under;
  if (there !== undefined) return found(refOf(there.path), wanted, there.answer);
  // Only redirects: the project was renamed or moved elsewhere since, outside this configuration.
  const elsewhere = mine ?? earlier[0];
  if (elsewhere !== undefined) {
    const now = elsewhere.answer.path_with_namespace;
    return error(
      `${scope} is not found under its path, and ${elsewhere.path} now redirects to ${now} (GitLab keeps a moved project's old path): list ${now} in previously to move it back, or name ${now} in the entry`,
      elsewhere.path,
      200,
    );
  }
  return { kind: "absent", wanted };
}
