import * as z from "zod";
import type { RepoRef, ReadResult, ResourceReader } from "../context.js";
import { changeError } from "../context.js";
import { groupPath, projectPath } from "../gitlab-paths.js";

/**
 * The group right above a project (its namespace) or a subgroup (its parent), as an API path, null
 * for a top-level group: from the path as written where it says, else from the place's own answer
 * (`namespace.full_path` of a project, `parent_id` of a group), for a place written by its id.
 */

const projectAnswer = {
  name: "a project",
  schema: z.looseObject({ namespace: z.looseObject({ full_path: z.string().min(1) }) }),
};
const groupAnswer = {
  name: "a group",
  schema: z.looseObject({ parent_id: z.number().int().nullable() }),
};

function notFound(what: string, path: string, reader: ResourceReader): ReadResult<never> {
  return {
    kind: "error",
    error: changeError(
      `${what} was not found (or ${reader.credential} cannot see it)`,
      "GET",
      path,
      404,
    ),
  };
}

/** The full path of a project's namespace: as written, else from the project's answer. */
export async function projectNamespace(
  reader: ResourceReader,
  project: RepoRef,
): Promise<ReadResult<string>> {
  if (project.owner !== "") return { kind: "found", data: project.owner };
  const path = projectPath(project);
  const read = await reader.getOrAbsent(path, projectAnswer);
  if (read.kind === "absent") return notFound(`project ${project.name}`, path, reader);
  if (read.kind === "error") return read;
  return { kind: "found", data: read.data.namespace.full_path };
}

export async function projectAbove(
  reader: ResourceReader,
  project: RepoRef,
): Promise<ReadResult<string | null>> {
  const namespace = await projectNamespace(reader, project);
  return namespace.kind === "found"
    ? { kind: "found", data: groupPath(namespace.data) }
    : namespace;
}

export async function groupAbove(
  reader: ResourceReader,
  group: string,
): Promise<ReadResult<string | null>> {
  if (!/^\d+$/.test(group)) {
    const cut = group.lastIndexOf("/");
    return { kind: "found", data: cut < 0 ? null : groupPath(group.slice(0, cut)) };
  }
  const path = groupPath(group);
  const read = await reader.getOrAbsent(path, groupAnswer);
  if (read.kind === "absent") return notFound(`group ${group}`, path, reader);
  if (read.kind === "error") return read;
  return {
    kind: "found",
    data: read.data.parent_id === null ? null : groupPath(read.data.parent_id),
  };
}
