import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  idParam,
  ok,
  type RequestContext,
  requireCaller,
} from "../core/http-support.js";
import { paginate } from "../core/pagination.js";
import type { Route } from "../core/router.js";
import { parameters } from "./parameters.js";
import { board, project } from "./shapes.js";
import type { Board, Project } from "../core/world.js";

/** Projects and their issue boards (spec endpoint 9), in GitLab v4's shapes. */

function visibleProject(ctx: RequestContext): Project {
  const caller = requireCaller(ctx, "gitlab");
  const found = ctx.world.project(ctx.params.id ?? "");
  if (!found || !ctx.world.hasRole(found.group, caller, "guest")) {
    throw gitlabNotFound("Project Not Found");
  }
  return found;
}

function boardOf(ctx: RequestContext, owner: Project): Board {
  const id = idParam(ctx.params.board);
  const found = id === undefined ? undefined : owner.boards.get(id);
  if (!found) throw gitlabNotFound("Board Not Found");
  return found;
}

export const boardRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/projects/:id",
    handler: (ctx) => ok(project(ctx.base, visibleProject(ctx))),
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/boards",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      const boards = [...found.boards.values()].sort((a, b) => a.id - b.id);
      const page = paginate(ctx, boards, "gitlab");
      return {
        status: 200,
        body: page.items.map((item) => board(ctx.base, item)),
        headers: page.headers,
      };
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/boards/:board",
    handler: (ctx) => ok(board(ctx.base, boardOf(ctx, visibleProject(ctx)))),
  },
  {
    method: "POST",
    pattern: "/api/v4/projects/:id/boards",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      if (!ctx.world.hasRole(found.group, ctx.caller, "reporter")) throw gitlabForbidden();
      const { name } = parameters(ctx);
      if (name === undefined) throw gitlabBadParameter("name is missing");
      if (typeof name !== "string" || name.trim() === "") {
        throw gitlabBadParameter("name is invalid");
      }
      const created: Board = {
        id: ctx.world.nextId.board++,
        name,
        hide_backlog_list: false,
        hide_closed_list: false,
        project: found,
      };
      found.boards.set(created.id, created);
      return ok(board(ctx.base, created), 201);
    },
  },
  {
    method: "DELETE",
    pattern: "/api/v4/projects/:id/boards/:board",
    operation: "DELETE /api/v4/projects/{id}/boards/{board_id}",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      const target = boardOf(ctx, found);
      // Deleting boards needs Reporter or higher in the project's group (our choice; see the decisions doc).
      if (!ctx.world.hasRole(found.group, ctx.caller, "reporter")) throw gitlabForbidden();
      // GitLab keeps a project's last board (Boards::DestroyService: "The board could not be deleted,
      // because the parent doesn't have any other boards."), though its API answers that DELETE 204
      // all the same. The spec's success answer is the deleted board, so the sandbox refuses with the
      // spec's Bad Request and GitLab's words instead of answering a board it did not delete.
      if (found.boards.size === 1) {
        throw gitlabError(
          400,
          "The board could not be deleted, because the parent doesn't have any other boards.",
        );
      }
      found.boards.delete(target.id);
      return ok(board(ctx.base, target));
    },
  },
];
