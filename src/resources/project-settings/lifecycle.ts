import * as z from "zod";
import { selectedName } from "../../config/glob.js";
import { type Change, type ChangeError, newChange, type PlannedRequest } from "../../core/plan.js";
import { aroundArchived } from "../archived-around.js";
import { changeError, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { KIND, OWN_CHANGES, type ProjectAnswer } from "./canonical.js";
import type { ProjectSettings } from "./settings.js";

/**
 * A project's lifecycle, as a repository's is on GitHub: created in its group (`POST /projects`,
 * behind --allow-create), moved from a previous full path (a transfer to another group and a new
 * path, applied after its other changes), archived last and unarchived first (GitLab's
 * `POST /projects/:id/archive` and `/unarchive`).
 */

const groupAnswer = {
  name: "a group",
  schema: z.looseObject({
    id: z.number().int(),
    visibility: z.enum(["private", "internal", "public"]).optional(),
  }),
};

const VISIBILITY_RANK = { private: 0, internal: 1, public: 2 } as const;

function change(reader: ResourceReader, scope: string, name: string): Change {
  return newChange(reader.target, scope, KIND, name);
}

/**
 * Creates a project that does not exist, in its group (read first for its id: GitLab's create
 * takes `namespace_id`), with every settings field the create takes in the same request (create
 * and edit share `optional_project_params`, lib/api/helpers/projects_helpers.rb). A new project's
 * repository is empty, so `default_branch` is planned once it has a branch.
 */
export async function planCreate(input: {
  reader: ResourceReader;
  project: RepoRef;
  value: ProjectSettings;
}): Promise<Change> {
  const { reader, project, value } = input;
  const scope = selectedName(project.owner, project.name);
  const base = change(reader, scope, "project");
  if (project.owner === "") {
    return {
      ...base,
      error: changeError(
        `project ${project.name} is named by id and was not found: create needs the project's full path (group/…/project)`,
      ),
    };
  }
  const group = await reader.getOrAbsent(groupPath(project.owner), groupAnswer);
  if (group.kind === "error") return { ...base, error: group.error };
  if (group.kind === "absent") {
    return {
      ...base,
      error: changeError(
        `group ${project.owner} was not found (or ${reader.credential} cannot see it): forgeplan creates a project in an existing group only`,
        "GET",
        groupPath(project.owner),
        404,
      ),
    };
  }
  const ceiling = group.data.visibility;
  if (
    value.visibility !== undefined &&
    ceiling !== undefined &&
    VISIBILITY_RANK[value.visibility] > VISIBILITY_RANK[ceiling]
  ) {
    return {
      ...base,
      error: changeError(
        `visibility ${value.visibility} is wider than group ${project.owner}'s (${ceiling}): GitLab refuses the create ("visibility_level ${value.visibility} is not allowed in a ${ceiling} group")`,
      ),
    };
  }
  const fields: Record<string, unknown> = {};
  for (const [key, written] of Object.entries(value)) {
    if (!(OWN_CHANGES as readonly string[]).includes(key)) fields[key] = written;
  }
  const body = {
    name: project.name,
    path: project.name,
    namespace_id: group.data.id,
    visibility: value.visibility,
    ...fields,
  };
  const path = projectPath(project);
  const requests: PlannedRequest[] = [{ method: "POST", path: "/api/v4/projects", body }];
  if (value.archived === true) requests.push({ method: "POST", path: `${path}/archive` });
  const after = {
    visibility: value.visibility,
    ...fields,
    ...(value.archived === undefined ? {} : { archived: value.archived }),
  };
  return {
    ...base,
    action: "create",
    diff: diffValues({}, after),
    requests,
    live_fingerprint: fingerprint(null),
    step: "create",
    gate: "create",
    notes: [
      `created with POST /api/v4/projects in group ${project.owner} (id ${group.data.id}); forgeplan never deletes a project`,
      ...(value.default_branch === undefined
        ? []
        : [
            `default_branch ${value.default_branch} is planned once the project has branches (a new one is empty)`,
          ]),
    ],
  };
}

export function notFound(reader: ResourceReader, scope: string, value: ProjectSettings): Change {
  return {
    ...change(reader, scope, "project"),
    error: changeError(
      `project ${scope} was not found (or ${reader.credential} cannot see it)${value.previously === undefined ? "" : ` under its previous paths (${value.previously.join(", ")})`}; settings.create: true creates it`,
      "GET",
      projectPath(scope),
      404,
    ),
  };
}

function unreported(path: string, field: string): ChangeError {
  return changeError(`GET ${path} answered without ${field}`, "GET", path, 200);
}

/** `archived`: archived last, unarchived first (the steps order it among every kind's changes). */
export function planArchived(input: {
  reader: ResourceReader;
  scope: string;
  path: string;
  wanted: boolean;
  answer: ProjectAnswer;
}): Change {
  const { reader, scope, path, wanted, answer } = input;
  const base = change(reader, scope, "archived");
  if (answer.archived === undefined) return { ...base, error: unreported(path, "archived") };
  const live = { archived: answer.archived };
  if (answer.archived === wanted) return { ...base, live_fingerprint: fingerprint(live) };
  return {
    ...base,
    action: "update",
    diff: diffValues(live, { archived: wanted }),
    requests: [{ method: "POST", path: `${path}/${wanted ? "archive" : "unarchive"}` }],
    live_fingerprint: fingerprint(live),
    step: wanted ? "archive" : "unarchive",
  };
}

/**
 * The move from a previous full path to the entry's, planned when the project is found only
 * there: a transfer when the group differs (`PUT /projects/:id/transfer`), then a new path
 * (`PUT /projects/:id` with `path`), both by the project's id, which neither changes. Its name
 * (the title GitLab shows) is left as it is.
 */
export function planMove(input: {
  reader: ResourceReader;
  at: RepoRef;
  wanted: RepoRef;
  answer: ProjectAnswer;
}): Change {
  const { reader, at, wanted, answer } = input;
  const scope = selectedName(wanted.owner, wanted.name);
  const from = selectedName(at.owner, at.name);
  const base = change(reader, scope, "path");
  const live = { path_with_namespace: from };
  if (from.toLowerCase() === scope.toLowerCase())
    return { ...base, live_fingerprint: fingerprint(live) };
  const byId = projectPath(answer.id);
  const requests: PlannedRequest[] = [];
  if (at.owner.toLowerCase() !== wanted.owner.toLowerCase())
    requests.push({ method: "PUT", path: `${byId}/transfer`, body: { namespace: wanted.owner } });
  if (at.name !== wanted.name)
    requests.push({ method: "PUT", path: byId, body: { path: wanted.name } });
  return {
    ...base,
    action: "update",
    diff: diffValues(live, { path_with_namespace: scope }),
    requests,
    live_fingerprint: fingerprint(live),
    step: "rename",
    notes: [
      `found only under its previous path ${from}: moved to ${scope}, after its other changes (GitLab keeps ${from} as a redirect; the project's name is left as it is)`,
    ],
  };
}

/** The unarchive and re-archive around an archived project's changes: GitLab's POSTs. */
export function around(input: {
  target: string;
  scope: string;
  at: RepoRef;
  others: number;
}): [Change, Change] {
  const path = projectPath(input.at);
  return aroundArchived({
    ...input,
    kind: KIND,
    request: (archived) => ({
      method: "POST",
      path: `${path}/${archived ? "archive" : "unarchive"}`,
    }),
  });
}
