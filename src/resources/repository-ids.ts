import * as z from "zod";
import type { ChangeError } from "../core/plan.js";
import { changeError, repoPath, type ResourceReader } from "./context.js";

/**
 * Repositories an organization's settings select are written by name and sent by id (GitHub's
 * `selected_repository_ids`); names compare case-insensitively, as a set.
 */

const repositoryShape = {
  name: "a repository",
  schema: z.looseObject({ id: z.number().int(), name: z.string() }),
};

/** A listing's repository, as far as selections read it. */
export const listedRepository = repositoryShape;

export function nameSet(names: readonly string[]): string[] {
  return [...new Set(names.map((name) => name.toLowerCase()))].sort();
}

/** The ids of the organization's repositories named, or why one cannot be found. */
export async function repositoryIds(
  reader: ResourceReader,
  org: string,
  names: readonly string[],
): Promise<{ ids: number[] } | { error: ChangeError }> {
  const ids: number[] = [];
  for (const name of nameSet(names)) {
    const path = repoPath({ owner: org, name });
    const found = await reader.getOrAbsent(path, repositoryShape);
    if (found.kind === "error") return { error: found.error };
    if (found.kind === "absent") {
      return {
        error: changeError(`repository ${name} does not exist in ${org}`, "GET", path, 404),
      };
    }
    ids.push(found.data.id);
  }
  return { ids };
}

/** The names of the repositories a `…/repositories` listing holds, or why it could not be read. */
export async function listedNames(
  reader: ResourceReader,
  path: string,
): Promise<{ names: string[] } | { error: ChangeError }> {
  const listed = await reader.list(path, undefined, repositoryShape, {
    itemsUnder: "repositories",
  });
  if (listed.kind === "found") return { names: nameSet(listed.data.map((repo) => repo.name)) };
  if (listed.kind === "error") return { error: listed.error };
  return { error: changeError(listed.detail, "GET", path, 404) };
}
