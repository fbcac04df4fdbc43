import type { Group, Project } from "../world/records.js";
import type { Badge } from "./records.js";

/**
 * The placeholders GitLab fills in a badge's URLs for a project (doc/user/project/badges.md,
 * "Placeholders"); `%{commit_sha}` and `%{latest_tag}` stand for what the sandbox has none of and
 * are left as written, as are all of them where no project is in view (a group's own listing).
 */
function rendered(url: string, project: Project | undefined, base: string): string {
  if (project === undefined) return url;
  const values: Record<string, string> = {
    project_path: `${project.group.fullPath}/${project.path}`,
    project_title: project.name,
    project_name: project.path,
    project_id: String(project.id),
    project_namespace: project.group.fullPath,
    group_name: project.group.path,
    gitlab_server: new URL(base).host,
    gitlab_pages_domain: "pages.sandbox.test",
    default_branch: project.default_branch ?? "",
  };
  return url.replaceAll(/%\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** A badge as the badges APIs show it: `kind` says whose it is. */
export function badge(
  base: string,
  value: Badge,
  kind: "project" | "group",
  project?: Project,
): Record<string, unknown> {
  return {
    id: value.id,
    name: value.name,
    link_url: value.link_url,
    image_url: value.image_url,
    rendered_link_url: rendered(value.link_url, project, base),
    rendered_image_url: rendered(value.image_url, project, base),
    kind,
  };
}

/** The groups whose badges a project shows: its group and every group above it. */
export function groupsAbove(project: Project): Group[] {
  const found: Group[] = [];
  for (let at: Group | null = project.group; at !== null; at = at.parent) found.push(at);
  return found;
}
