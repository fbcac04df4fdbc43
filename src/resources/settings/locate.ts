import { changeError, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import type { Location } from "../kind.js";
import { type FullRepository, fullRepository } from "./canonical.js";

/**
 * Finds the repository an entry names: under its name, or — when the entry lists `previously` —
 * under one of its previous names. A previous name GitHub still answers may be the repository
 * itself (GitHub redirects a renamed repository's old name, so the answer is the same repository
 * under its new name) or another repository that took the name: told apart by id, and two
 * repositories are an error naming both, never a guess (terraform-provider-github#58 took over a
 * repository that reused a name).
 */
export async function locateRepository(input: {
  reader: ResourceReader;
  repo: RepoRef;
  previously: readonly string[];
  listed?: { archived: boolean };
}): Promise<Location> {
  const { reader, repo: wanted, previously, listed } = input;
  const scope = `${wanted.owner}/${wanted.name}`;
  // A listing found it under its name: it is read only to tell its previous names apart.
  if (listed !== undefined && previously.length === 0) {
    return { kind: "found", at: wanted, wanted, archived: listed.archived };
  }
  const own = await reader.getOrAbsent(repoPath(wanted), fullRepository);
  if (own.kind === "error") return { kind: "error", wanted, error: own.error };
  const earlier: Array<{ name: string; answer: FullRepository }> = [];
  for (const name of previously) {
    const at = { owner: wanted.owner, name };
    const read = await reader.getOrAbsent(repoPath(at), fullRepository);
    if (read.kind === "error") return { kind: "error", wanted, error: read.error };
    if (read.kind === "found") earlier.push({ name, answer: read.data });
  }
  if (own.kind === "found") {
    const other = earlier.find((found) => found.answer.id !== own.data.id);
    if (other !== undefined) {
      const message = `${scope} and ${wanted.owner}/${other.name} are two repositories (ids ${own.data.id} and ${other.answer.id}); previously lists ${other.name}, which is not this repository's old name: remove it from previously or rename one of them — forgeplan does not guess which is meant`;
      return {
        kind: "error",
        wanted,
        error: changeError(
          message,
          "GET",
          repoPath({ owner: wanted.owner, name: other.name }),
          200,
        ),
      };
    }
    return { kind: "found", at: wanted, wanted, archived: own.data.archived, answer: own.data };
  }
  // Not under its name: under a previous one that is still its own (not redirected elsewhere).
  const under = earlier.filter(
    (found) => found.answer.name.toLowerCase() === found.name.toLowerCase(),
  );
  const moved = earlier.filter(
    (found) => found.answer.name.toLowerCase() !== found.name.toLowerCase(),
  );
  if (under.length > 1) {
    const names = under.map((found) => `${wanted.owner}/${found.name} (id ${found.answer.id})`);
    return {
      kind: "error",
      wanted,
      error: changeError(
        `${scope} is not found, and its previous names are ${names.length} repositories: ${names.join(", ")} — forgeplan does not guess which to rename`,
        "GET",
        repoPath(wanted),
        404,
      ),
    };
  }
  const [found] = under;
  if (found !== undefined) {
    return {
      kind: "found",
      at: { owner: wanted.owner, name: found.name },
      wanted,
      archived: found.answer.archived,
      answer: found.answer,
    };
  }
  const [elsewhere] = moved;
  if (elsewhere !== undefined) {
    return {
      kind: "error",
      wanted,
      error: changeError(
        `${scope} is not found, and its previous name ${elsewhere.name} now redirects to ${elsewhere.answer.owner.login}/${elsewhere.answer.name}: name that one in previously, or rename it by hand`,
        "GET",
        repoPath({ owner: wanted.owner, name: elsewhere.name }),
        200,
      ),
    };
  }
  return { kind: "absent", wanted };
}
