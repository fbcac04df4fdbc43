import { selectedName } from "../config/glob.js";
import type { RepoRef } from "./context.js";

/**
 * GitLab's API paths of a project and a group, built in one place: an id or a full path, URL-encoded
 * whole (`acme%2Fplatform%2Fapi`), as GitLab takes either ("ID or URL-encoded path",
 * doc/api/rest/index.md, "Namespaced paths").
 */
export function projectPath(project: RepoRef | string | number): string {
  const id = typeof project === "object" ? selectedName(project.owner, project.name) : project;
  return `/api/v4/projects/${encodeURIComponent(String(id))}`;
}

export function groupPath(group: string | number): string {
  return `/api/v4/groups/${encodeURIComponent(String(group))}`;
}
