import {
  gitlabBadParameter,
  gitlabForbidden,
  gitlabNotFound,
  HttpError,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { GITLAB_TIERS } from "../tiers.js";
import { visibleProject } from "../world/access.js";
import type { GitlabWorld, Group, Project, Visibility } from "../world/records.js";
import { projectAnswer } from "../world/shapes.js";
import {
  ACCESS_LEVEL_VALUES,
  BOOLEAN_FIELDS,
  branchesOf,
  FEATURE_FIELDS,
  PAGES_ACCESS_LEVEL_VALUES,
  type ProjectSettingsRecord,
  settingsOf,
  topicsOf,
} from "./records.js";
import { branch } from "./shapes.js";

/**
 * GitLab's "Edit a project" (`PUT /projects/:id`) for the settings this area keeps, and the branch
 * read a default branch is checked by. Parameters are validated as Grape declares them in
 * lib/api/helpers/projects_helpers.rb (`optional_project_params_ce`): a wrong type answers
 * `{"error": "<name> is invalid"}`, a value outside `values:` `{"error": "<name> does not have a
 * valid value"}`, both 400; then the model's validations answer 400 `{"message": {<attribute>:
 * [<message>]}}` (`render_validation_error!`). Nothing is changed unless every check passes.
 */

const ENUMS: Readonly<Record<string, readonly string[]>> = {
  visibility: ["private", "internal", "public"],
  merge_method: ["ff", "rebase_merge", "merge"],
  squash_option: ["never", "always", "default_on", "default_off"],
  auto_cancel_pending_pipelines: ["disabled", "enabled"],
  ...Object.fromEntries(
    FEATURE_FIELDS.map((field) => [
      field,
      field === "pages_access_level" ? PAGES_ACCESS_LEVEL_VALUES : ACCESS_LEVEL_VALUES,
    ]),
  ),
};

const STRINGS = [
  "name",
  "path",
  "description",
  "default_branch",
  "merge_commit_template",
  "squash_commit_template",
  "ci_config_path",
] as const;

/** The parameters the sandbox serves, in the order GitLab names them when none is given. */
const SERVED = [
  ...STRINGS,
  "topics",
  "build_timeout",
  ...BOOLEAN_FIELDS,
  ...Object.keys(ENUMS),
] as const;

/** Grape's Boolean: true/false and the strings dry-types' Params::Bool takes. */
function boolean(name: string, value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    if (/^(true|t|1|yes|y|on)$/i.test(value)) return true;
    if (/^(false|f|0|no|n|off)$/i.test(value)) return false;
  }
  throw gitlabBadParameter(`${name} is invalid`);
}

function integer(name: string, value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  throw gitlabBadParameter(`${name} is invalid`);
}

/**
 * `topics`: an array of strings or a comma-separated string, each split on commas and stripped
 * (API::Validations::Types::CommaSeparatedToArray); blanks dropped and names kept once ignoring
 * case (Project#topic_list=).
 */
function topicList(value: unknown): string[] {
  const items = typeof value === "string" ? [value] : value;
  if (!Array.isArray(items) || items.some((item) => typeof item !== "string"))
    throw gitlabBadParameter("topics is invalid");
  const names = (items as string[]).flatMap((item) => item.split(",").map((name) => name.trim()));
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = name.toLowerCase();
    if (name === "" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A model validation failure: 400 `{"message": {attribute: [message]}}`. */
function invalid(errors: Record<string, string[]>): HttpError {
  return new HttpError({ status: 400, body: { message: errors } });
}

const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 1, public: 2 };
const LEVEL_RANK: Record<string, number> = { disabled: 0, private: 1, enabled: 2, public: 3 };

export interface Update {
  project: Partial<Pick<Project, "description" | "visibility" | "name" | "path">> & {
    default_branch?: string;
  };
  settings: Partial<ProjectSettingsRecord>;
}

/**
 * The request's parameters, type- and value-checked as Grape does, then sorted by where they live.
 * An edit must name at least one (Grape's `at_least_one_of`); a create names its project anyway.
 */
export function readUpdate(ctx: RequestContext, edit = true): Update {
  const params = parameters(ctx);
  const given = SERVED.filter((name) => params[name] !== undefined);
  if (edit && given.length === 0) {
    throw gitlabBadParameter(
      `${SERVED.join(", ")} are missing, at least one parameter must be provided`,
    );
  }
  const update: Update = { project: {}, settings: {} };
  const settings = update.settings as Record<string, unknown>;
  for (const name of given) {
    const value = params[name];
    if ((STRINGS as readonly string[]).includes(name)) {
      if (value !== null && typeof value !== "string")
        throw gitlabBadParameter(`${name} is invalid`);
      if (name === "name" || name === "path") {
        if (value === null) throw gitlabBadParameter(`${name} is invalid`);
        update.project[name] = value as string;
      } else if (name === "description")
        update.project.description = (value as string | null) ?? "";
      else if (name === "default_branch") {
        if (value === null) throw gitlabBadParameter(`${name} is invalid`);
        update.project.default_branch = value as string;
      } else settings[name] = value;
    } else if (name === "topics") settings.topics = topicList(value);
    else if (name === "build_timeout") settings.build_timeout = integer(name, value);
    else if ((BOOLEAN_FIELDS as readonly string[]).includes(name))
      settings[name] = boolean(name, value);
    else {
      if (typeof value !== "string") throw gitlabBadParameter(`${name} is invalid`);
      if (!ENUMS[name]!.includes(value))
        throw gitlabBadParameter(`${name} does not have a valid value`);
      if (name === "visibility") update.project.visibility = value as Visibility;
      else settings[name] = value;
    }
  }
  return update;
}

/**
 * A project path as GitLab takes it (lib/gitlab/path_regex.rb `project_path_format_regex` and its
 * message): letters, digits, `_`, `-` and `.`, not starting with `-` or `.`, not ending in `.git`
 * or `.atom`.
 */
const PROJECT_PATH = /^(?![-.])[a-zA-Z0-9_.-]+(?<![-.])$/;
const PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

/**
 * Where a project would be after the update: its path in its group is free of other projects and
 * of subgroups (routes are unique), and well formed. A redirect left by a rename does not hold a
 * path (GitLab's Route drops conflicting redirects).
 */
export function pathProblems(
  world: GitlabWorld,
  project: Project | undefined,
  group: Group,
  path: string,
  name: string | undefined,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  if (!PROJECT_PATH.test(path) || /\.(git|atom)$/i.test(path)) add("path", PATH_MESSAGE);
  const full = `${group.fullPath}/${path}`.toLowerCase();
  const holder = world.projectsByPath.get(full);
  if ((holder !== undefined && holder !== project) || world.groupsByPath.has(full))
    add("path", "has already been taken");
  if (name !== undefined) {
    if (name.trim() === "" || name.length > 255) add("name", "is too long or blank");
    const named = [...world.projects.values()].find(
      (other) => other !== project && other.group === group && other.name === name,
    );
    if (named !== undefined) add("name", "has already been taken");
  }
  return errors;
}

/** The Project model's validations of the values after the update (app/models/project.rb). */
export function validate(world: GitlabWorld, found: Project, update: Update): void {
  const errors: Record<string, string[]> =
    update.project.path === undefined && update.project.name === undefined
      ? {}
      : pathProblems(
          world,
          found,
          found.group,
          update.project.path ?? found.path,
          update.project.name,
        );
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  const after = { ...settingsOf(found), ...update.settings };
  if ((update.project.description ?? "").length > 2000)
    add("description", "is too long (maximum is 2000 characters)");
  for (const name of ["merge_commit_template", "squash_commit_template"] as const) {
    if ((update.settings[name] ?? "").length > 500)
      add(name, "is too long (maximum is 500 characters)");
  }
  const path = update.settings.ci_config_path;
  if (path !== undefined && path !== null) {
    if (path.length > 255) add("ci_config_path", "is too long (maximum is 255 characters)");
    if (path.startsWith("/") || path.includes(".."))
      add("ci_config_path", "cannot include leading slash or directory traversal.");
  }
  const timeout = update.settings.build_timeout;
  if (timeout !== undefined && (timeout < 600 || timeout >= 2629746))
    add("build_timeout", "needs to be between 10 minutes and 1 month");
  for (const topic of update.settings.topics ?? []) {
    if (topic.length > 255) add("topics", "is too long (maximum is 255 characters)");
  }
  const visibility = update.project.visibility;
  if (
    visibility !== undefined &&
    VISIBILITY_RANK[visibility] > VISIBILITY_RANK[found.group.visibility]
  )
    add("visibility_level", `${visibility} is not allowed in a ${found.group.visibility} group.`);
  for (const child of [
    "merge_requests_access_level",
    "forking_access_level",
    "builds_access_level",
  ] as const) {
    if (LEVEL_RANK[after[child]]! > LEVEL_RANK[after.repository_access_level]!)
      add(
        `project_feature.${child}`,
        "cannot have higher visibility level than repository access level",
      );
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

/** Topics as the instance keeps them: an existing topic keeps its own case. */
function keptTopics(ctx: RequestContext, names: readonly string[]): string[] {
  const topics = topicsOf(ctx.world);
  return names.map((name) => {
    const key = name.toLowerCase();
    const existing = topics.get(key);
    if (existing !== undefined) return existing;
    topics.set(key, name);
    return name;
  });
}

/** Writes a checked update: a new path moves the project (its old one redirects to it). */
export function applyUpdate(ctx: RequestContext, found: Project, update: Update): void {
  if (GITLAB_TIERS.indexOf(ctx.world.tier) < GITLAB_TIERS.indexOf("premium"))
    delete update.settings.allow_pipeline_trigger_approve_deployment;
  if (update.settings.topics !== undefined)
    update.settings.topics = keptTopics(ctx, update.settings.topics);
  const { path, ...fields } = update.project;
  Object.assign(found, fields);
  if (path !== undefined) ctx.world.place(found, found.group, path);
  Object.assign(settingsOf(found), update.settings);
}

export const projectSettingsRoutes: Route[] = [
  {
    /**
     * "Edit a project": the Owner or Maintainer role may edit a project's properties (docs,
     * "Projects API", "Permissions"); anyone else who can see it gets 403. A tier's field is
     * dropped below its tier, as `filter_attributes_using_license!` drops it (ee/lib/ee/api/helpers/
     * projects_helpers.rb). The answer is the project as `GET /projects/:id` shows it.
     */
    method: "PUT",
    pattern: "/api/v4/projects/:id",
    operation: "PUT /api/v4/projects/{id}",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      if (!ctx.world.hasRole(found, ctx.caller, "maintainer")) throw gitlabForbidden();
      const update = readUpdate(ctx);
      validate(ctx.world, found, update);
      const wanted = update.project.default_branch;
      if (wanted !== undefined && !branchesOf(found).has(wanted)) {
        throw new HttpError({
          status: 400,
          body: {
            message: `Could not set the default branch. Do you have a branch named '${wanted}' in your repository?`,
          },
        });
      }
      applyUpdate(ctx, found, update);
      return ok(projectAnswer(ctx.world, ctx.base, found));
    },
  },
  {
    // "Get single repository branch": 404 "Branch Not Found" for a branch the project lacks.
    method: "GET",
    pattern: "/api/v4/projects/:id/repository/branches/:branch",
    operation: "GET /api/v4/projects/{id}/repository/branches/{branch}",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      const name = ctx.params.branch ?? "";
      if (!branchesOf(found).has(name)) throw gitlabNotFound("Branch Not Found");
      return ok(branch(ctx.base, found, name));
    },
  },
];
