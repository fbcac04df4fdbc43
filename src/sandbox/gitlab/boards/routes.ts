import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  gitlabPageReply,
  idParam,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { visibleProject } from "../world/access.js";
import type { Project } from "../world/records.js";
import { type Board, boardIds, boardsOf } from "./records.js";
import { board } from "./shapes.js";

/** Projects' issue boards (spec endpoint 9), in GitLab v4's shapes. */

function boardOf(ctx: RequestContext, owner: Project): Board {
  const id = idParam(ctx.params.board);
  const found = id === undefined ? undefined : boardsOf(owner).get(id);
  if (!found) throw gitlabNotFound("Board Not Found");
  return found;
}

export const boardRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/boards",
    operation: "GET /api/v4/projects/{id}/boards",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      const boards = [...boardsOf(found).values()].sort((a, b) => a.id - b.id);
      return gitlabPageReply(ctx, boards, (item) => board(ctx.base, item));
    },
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/boards/:board",
    operation: "GET /api/v4/projects/{id}/boards/{board_id}",
    handler: (ctx) => ok(board(ctx.base, boardOf(ctx, visibleProject(ctx)))),
  },
  {
    method: "POST",
    pattern: "/api/v4/projects/:id/boards",
    operation: "POST /api/v4/projects/{id}/boards",
    handler: (ctx) => {
      const found = visibleProject(ctx);
      if (!ctx.world.hasRole(found, ctx.caller, "reporter")) throw gitlabForbidden();
      const { name } = parameters(ctx);
      if (name === undefined) throw gitlabBadParameter("name is missing");
      if (typeof name !== "string" || name.trim() === "") {
        throw gitlabBadParameter("name is invalid");
      }
      const created: Board = {
        id: boardIds(ctx.world).next++,
        name,
        hide_backlog_list: false,
        hide_closed_list: false,
        project: found,
      };
      boardsOf(found).set(created.id, created);
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
      // Deleting boards needs Reporter or higher in the project (or a group above it) (our choice; see the decisions doc).
      if (!ctx.world.hasRole(found, ctx.caller, "reporter")) throw gitlabForbidden();
      // GitLab keeps a project's last board (Boards::DestroyService: "The board could not be deleted,
      // because the parent doesn't have any other boards."), though its API answers that DELETE 204
      // all the same. The spec's success answer is the deleted board, so the sandbox refuses with the
      // spec's Bad Request and GitLab's words instead of answering a board it did not delete.
      if (boardsOf(found).size === 1) {
        throw gitlabError(
          400,
          "The board could not be deleted, because the parent doesn't have any other boards.",
        );
      }
      boardsOf(found).delete(target.id);
      return ok(board(ctx.base, target));
    },
  },
];
