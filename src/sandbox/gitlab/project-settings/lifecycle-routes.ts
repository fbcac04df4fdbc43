import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  HttpError,
  ok,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { visibleProject } from "../world/access.js";
import type { Group, Project, Visibility } from "../world/records.js";
import { projectAnswer } from "../world/shapes.js";
import { branchesOf } from "./records.js";
import { applyUpdate, pathProblems, readUpdate, validate } from "./routes.js";

/**
 * A project's lifecycle as GitLab's Projects API serves it: "Create a project" (`POST /projects`),
 * "Archive a project" and "Unarchive a project", "Transfer a project to a new namespace"; a rename
 * is an edit of `path` (routes.ts). Renamed and transferred projects keep their old full path as a
 * redirect (world/records.ts `place`).
 */

const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 1, public: 2 };

/** A model validation failure: 400 `{"message": {attribute: [message]}}`. */
function invalid(errors: Record<string, string[]>): HttpError {
  return new HttpError({ status: 400, body: { message: errors } });
}

/**
 * The group a project is created in or transferred to. Projects::CreateService answers a namespace
 * the caller may not create projects in as it answers one that does not exist: `namespace` "is not
 * valid". Developers and maintainers may create projects in a group by default
 * (`default_project_creation`, doc/user/group/_index.md); the sandbox takes that default.
 */
function creatableGroup(ctx: RequestContext, idOrPath: unknown): Group {
  const caller = requireCaller(ctx);
  const group =
    typeof idOrPath === "number" || typeof idOrPath === "string"
      ? ctx.world.group(String(idOrPath))
      : undefined;
  if (group === undefined || !ctx.world.hasRole(group, caller, "developer")) {
    throw invalid({ namespace: ["is not valid"] });
  }
  return group;
}

function nextProjectId(ctx: RequestContext): number {
  let highest = 0;
  for (const id of ctx.world.projects.keys()) highest = Math.max(highest, id);
  return highest + 1;
}

/**
 * Archiving and unarchiving take the Owner role ("Archive a project": "Prerequisites: … the Owner
 * role"; GitLab's spec/requests/api/projects_spec.rb answers 403 to a developer) and answer 201 with
 * the project, also when it already was as asked.
 */
function archiving(archived: boolean): Route {
  const verb = archived ? "archive" : "unarchive";
  return {
    method: "POST",
    pattern: `/api/v4/projects/:id/${verb}`,
    operation: `POST /api/v4/projects/{id}/${verb}`,
    handler: (ctx) => {
      const found = visibleProject(ctx);
      if (!ctx.world.hasRole(found, ctx.caller, "owner")) throw gitlabForbidden();
      found.archived = archived;
      return { status: 201, body: projectAnswer(ctx.world, ctx.base, found) };
    },
  };
}

export const lifecycleRoutes: Route[] = [
  {
    /**
     * "Create a project" in a group (`namespace_id`): the sandbox has no personal namespaces, so a
     * create without one is refused, saying so. Its path is `path`, else `name`; the settings
     * parameters are an edit's (`optional_project_params`), checked alike. Without
     * `initialize_with_readme` the repository is empty: no branch, `default_branch` null.
     */
    method: "POST",
    pattern: "/api/v4/projects",
    operation: "POST /api/v4/projects",
    handler: (ctx) => {
      requireCaller(ctx);
      const params = parameters(ctx);
      if (params.name === undefined && params.path === undefined)
        throw gitlabBadParameter("name, path are missing, at least one parameter must be provided");
      if (params.namespace_id === undefined) {
        throw gitlabBadParameter(
          "namespace_id is missing: the sandbox has no personal namespaces (GitLab would create the project in the caller's own)",
        );
      }
      const group = creatableGroup(ctx, params.namespace_id);
      const update = readUpdate(ctx, false);
      const path = update.project.path ?? update.project.name ?? "";
      const name = update.project.name ?? path;
      const readme =
        params.initialize_with_readme === true || params.initialize_with_readme === "true";
      const draft: Project = {
        id: nextProjectId(ctx),
        group,
        path,
        name,
        description: "",
        default_branch: readme ? (update.project.default_branch ?? "main") : null,
        created_at: new Date(ctx.now()).toISOString(),
        archived: false,
        visibility: "private",
        members: new Map(),
      };
      const { default_branch: _branch, path: _path, ...fields } = update.project;
      const errors = pathProblems(ctx.world, undefined, group, path, name);
      if (Object.keys(errors).length > 0) throw invalid(errors);
      validate(ctx.world, draft, { project: fields, settings: update.settings });
      ctx.world.place(draft, group, path);
      applyUpdate(ctx, draft, { project: fields, settings: update.settings });
      if (draft.default_branch !== null) branchesOf(draft).add(draft.default_branch);
      return { status: 201, body: projectAnswer(ctx.world, ctx.base, draft) };
    },
  },
  archiving(true),
  archiving(false),
  {
    /**
     * "Transfer a project to a new namespace": the project's Owner moves it to a group they may
     * create projects in; its old full path redirects to it. A project more visible than the group
     * it moves to takes the group's visibility (Projects::TransferService lowers it). The sandbox's
     * error texts for a transfer refused are its own; GitLab answers 400 likewise.
     */
    method: "PUT",
    pattern: "/api/v4/projects/:id/transfer",
    operation: "PUT /api/v4/projects/{id}/transfer",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      if (!ctx.world.hasRole(found, ctx.caller, "owner")) throw gitlabForbidden();
      const target = ctx.world.group(String(parameters(ctx).namespace ?? ""));
      if (target === undefined) throw gitlabError(404, "404 Namespace Not Found");
      if (!ctx.world.hasRole(target, ctx.caller, "developer")) throw gitlabForbidden();
      if (target === found.group) {
        throw gitlabError(400, "Failed to transfer project: Project is already in this namespace.");
      }
      const errors = pathProblems(ctx.world, found, target, found.path, undefined);
      if (Object.keys(errors).length > 0) {
        throw gitlabError(
          400,
          "Failed to transfer project: Project with same name or path in target namespace already exists",
        );
      }
      if (VISIBILITY_RANK[found.visibility] > VISIBILITY_RANK[target.visibility])
        found.visibility = target.visibility;
      ctx.world.place(found, target, found.path);
      return ok(projectAnswer(ctx.world, ctx.base, found));
    },
  },
];
