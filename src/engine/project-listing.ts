import * as z from "zod";
import type { ScopedEntry } from "../config/model.js";
import type { ResourceReader } from "../resources/context.js";
import { groupPath } from "../resources/gitlab-paths.js";
import {
  failure,
  type GlobLister,
  type Listing,
  type Listed,
  memoized,
  ownerKey,
} from "./listing.js";

/**
 * How a glob over a GitLab group's projects is listed: `GET /groups/:id/projects`, once per group
 * however many entries glob it, with its subgroups' projects (`include_subgroups`) when any glob of
 * the group reaches below it (`acme/**`, or a pattern with a slash), and without the projects other groups share
 * with it (`with_shared=false`; GitLab's default lists them too, though they live elsewhere:
 * docs/api/groups.md, "List projects").
 *
 * Not `simple`, its items are GitLab's Entities::Project (lib/api/groups.rb `present_projects`:
 * `with: params[:simple] ? Entities::BasicProjectDetails : Entities::Project`), which
 * `GET /projects/:id` answers too, with `permissions` added (Entities::ProjectWithAccess) and
 * the fields `options[:user_can_admin_project]` gates (lib/api/entities/project.rb: import_error,
 * runners_token, build_git_strategy), none of which the project settings kind reads: in bulk
 * reads an item stands for that read (./bulk/reads.ts).
 */

const listedProject = {
  name: "projects",
  schema: z.looseObject({
    path: z.string(),
    path_with_namespace: z.string(),
    archived: z.boolean().optional(),
  }),
};

/** Whether a glob below a group reaches its subgroups. */
const reachesSubgroups = (entry: ScopedEntry) =>
  entry.selector.kind === "glob" &&
  (entry.selector.pattern.includes("/") || entry.selector.pattern.includes("**"));

async function listGroupProjects(
  reader: ResourceReader,
  group: string,
  subgroups: boolean,
): Promise<Listing<Listed[]>> {
  const path = `${groupPath(group)}/projects`;
  const listed = await reader.list(
    path,
    { with_shared: "false", ...(subgroups ? { include_subgroups: "true" } : {}) },
    listedProject,
  );
  if (listed.kind !== "found") {
    const absent = `group ${group} was not found (or ${reader.credential} cannot see it)`;
    return { kind: "error", error: failure(listed, path, absent) };
  }
  return {
    kind: "found",
    data: listed.data.map((project) => ({
      owner: project.path_with_namespace.slice(0, -project.path.length - 1),
      name: project.path,
      archived: project.archived === true,
      answer: project,
    })),
  };
}

/** The lister of project globs: each group's projects listed once, deep where any glob needs it. */
export function projectLister(globs: readonly ScopedEntry[]): GlobLister {
  const deep = new Set(
    globs.filter(reachesSubgroups).map((entry) => ownerKey(entry.target, entry.selector.owner)),
  );
  const listings = new Map<string, Promise<Listing<Listed[]>>>();
  return (entry, reader) => {
    const key = ownerKey(entry.target, entry.selector.owner);
    return memoized(listings, key, () =>
      listGroupProjects(reader, entry.selector.owner, deep.has(key)),
    );
  };
}
