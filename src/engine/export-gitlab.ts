import * as z from "zod";
import { mustFind, type ResourceReader } from "../resources/context.js";
import { groupPath } from "../resources/gitlab-paths.js";
import { SCOPED_KINDS } from "../resources/index.js";
import { exportOwner, reading, type Unread } from "./export-read.js";

/**
 * What export writes of GitLab: projects entries and groups entries, each kind by kind. A group is
 * exported with everything below it, as GitLab lists it: its descendant groups (all levels,
 * `GET /groups/:id/descendant_groups`) and every project in it or them
 * (`GET /groups/:id/projects?include_subgroups=true`, without the projects other groups share with
 * it, `with_shared=false`: they live elsewhere; docs/api/groups.md, "List projects" and "List
 * descendant groups").
 */

const groupShape = { name: "a group", schema: z.looseObject({ full_path: z.string() }) };
const listedGroup = { name: "groups", schema: z.looseObject({ full_path: z.string() }) };
const listedProject = {
  name: "projects",
  schema: z.looseObject({ path_with_namespace: z.string() }),
};

/** A group named by id or path, the groups below it and the projects in them, by full path. */
interface GroupTree {
  groups: string[];
  projects: string[];
}

async function groupTree(reader: ResourceReader, group: string): Promise<GroupTree> {
  const path = groupPath(group);
  const own = mustFind(await reader.getOrAbsent(path, groupShape), path);
  const below = mustFind(
    await reader.list(`${path}/descendant_groups`, undefined, listedGroup),
    `${path}/descendant_groups`,
  );
  const projects = mustFind(
    await reader.list(
      `${path}/projects`,
      { include_subgroups: "true", with_shared: "false" },
      listedProject,
    ),
    `${path}/projects`,
  );
  return {
    groups: [own.full_path, ...below.map((found) => found.full_path)],
    projects: projects.map((found) => found.path_with_namespace),
  };
}

/**
 * A project's entry with every kind that could be read (undefined when it manages nothing), and
 * the comments its clean-ups write in place of values.
 */
async function exportProject(reader: ResourceReader, project: string, unread: Unread) {
  const numeric = /^[0-9]+$/.test(project);
  const slash = project.lastIndexOf("/");
  const at = numeric
    ? { owner: "", name: project }
    : { owner: project.slice(0, slash), name: project.slice(slash + 1) };
  const entry: Record<string, unknown> = {
    project: numeric ? Number(project) : project,
    target: reader.target,
  };
  const comments: string[] = [];
  let managed = false;
  for (const { part } of SCOPED_KINDS.project) {
    const key = part.setting.key;
    const result = await reading(
      `the ${key} of project ${project}`,
      undefined,
      unread,
      async () => ({
        value: await part.export?.(reader, at),
        comments: (await part.comments?.(reader, project)) ?? [],
      }),
    );
    if (!result.read) continue;
    comments.push(...result.value.comments);
    if (result.value.value === undefined) continue;
    entry[key] = result.value.value;
    managed = true;
  }
  return { entry: managed ? entry : undefined, comments };
}

/** Paths compare case-insensitively, as GitLab looks them up. */
const key = (path: string) => path.toLowerCase();

/** Adds what `more` names that `into` does not have yet, keeping the first spelling. */
function addNew(into: Map<string, string>, more: readonly string[]): void {
  for (const name of more) if (!into.has(key(name))) into.set(key(name), name);
}

/** In path order, so an export reads the same whatever order GitLab listed them in. */
function byPath(names: ReadonlyMap<string, string>): string[] {
  return [...names.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, name]) => name);
}

export async function exportGitlab(
  reader: ResourceReader,
  request: { projects?: readonly string[]; groups?: readonly string[] },
  unread: Unread,
): Promise<{
  projects: Array<Record<string, unknown>>;
  groups: Array<Record<string, unknown>>;
  comments: string[];
}> {
  const projects = new Map<string, string>();
  const groups = new Map<string, string>();
  addNew(projects, request.projects ?? []);
  for (const group of request.groups ?? []) {
    const tree = await reading(`the groups and projects of group ${group}`, undefined, unread, () =>
      groupTree(reader, group),
    );
    if (!tree.read) continue;
    addNew(groups, tree.value.groups);
    addNew(projects, tree.value.projects);
  }
  const comments: string[] = [];
  const groupEntries: Array<Record<string, unknown>> = [];
  for (const group of byPath(groups)) {
    const exported = await exportOwner("group", reader, group, unread);
    groupEntries.push(...exported.entries);
    comments.push(...exported.comments);
  }
  const projectEntries: Array<Record<string, unknown>> = [];
  for (const project of byPath(projects)) {
    const exported = await exportProject(reader, project, unread);
    if (exported.entry) projectEntries.push(exported.entry);
    comments.push(...exported.comments);
  }
  return { projects: projectEntries, groups: groupEntries, comments };
}
