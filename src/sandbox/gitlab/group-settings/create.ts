import {
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  HttpError,
  parameters,
  type RequestContext,
  requireCaller,
} from "../http.js";
import { addMember } from "../world/joined.js";
import type { Group } from "../world/records.js";
import { groupAnswer } from "../world/shapes.js";
import { groupSettingsOf } from "./records.js";
import { applyUpdate, readUpdate, validate } from "./routes.js";

/**
 * GitLab's "Create a group" (`POST /groups`; lib/api/groups.rb: `requires :name`, `requires
 * :path`, `optional :parent_id`, then the update's optional parameters). A subgroup needs
 * `create_subgroup` on its parent: its Owners, or its Maintainers too where the parent's
 * `subgroup_creation_level` is `maintainer` (docs, "Subgroups": "Allowed to create subgroups");
 * a parent that does not exist is `404 Group Not Found` (`find_group!`). A group that cannot be
 * saved answers `400 {"message": "Failed to save group {…}"}` with the model's errors, as
 * `render_api_error!("Failed to save group #{group.errors.messages}", 400)` renders them. The
 * creator becomes the new group's Owner (Groups::CreateService), and a new group is private
 * (the instance's default group visibility, `Gitlab::CurrentSettings.default_group_visibility`).
 */
export function createGroup(ctx: RequestContext) {
  const caller = requireCaller(ctx);
  const params = parameters(ctx);
  const parentId = params.parent_id;
  const parent =
    parentId === undefined || parentId === null ? null : ctx.world.groups.get(Number(parentId));
  if (parent === undefined) throw gitlabNotFound("Group Not Found");
  if (parent !== null) {
    const minimum =
      groupSettingsOf(parent).subgroup_creation_level === "maintainer" ? "maintainer" : "owner";
    if (!ctx.world.hasRole(parent, caller, minimum)) throw gitlabForbidden();
  }
  const path = String(params.path);
  const fullPath = parent === null ? path : `${parent.fullPath}/${path}`;
  if (ctx.world.groupsByPath.has(fullPath.toLowerCase())) {
    throw failed({ path: ["has already been taken"] });
  }
  const name = String(params.name);
  const group: Group = {
    id: Math.max(0, ...ctx.world.groups.keys()) + 1,
    path,
    name,
    parent,
    fullPath,
    fullName: parent === null ? name : `${parent.fullName} / ${name}`,
    visibility: "private",
    members: new Map(),
  };
  const update = readUpdate(ctx, groupSettingsOf(group));
  try {
    validate(ctx, group, update);
  } catch (error) {
    // The create renders the model's errors in its own message.
    const body = error instanceof HttpError ? (error.reply.body as { message?: unknown }) : {};
    if (body.message !== undefined && typeof body.message === "object") {
      throw failed(body.message as Record<string, string[]>);
    }
    throw error;
  }
  ctx.world.groups.set(group.id, group);
  ctx.world.groupsByPath.set(fullPath.toLowerCase(), group);
  applyUpdate(ctx, group, update);
  addMember(ctx.world, group, caller, "owner");
  return {
    status: 201,
    body: { ...groupAnswer(ctx.world, ctx.base, group), ...ctx.world.groupDetailFields(group) },
  };
}

/** Ruby's `Hash#inspect` of the model's errors, as GitLab's message shows them. */
function failed(errors: Record<string, string[]>): HttpError {
  const shown = Object.entries(errors)
    .map(([attribute, messages]) => `:${attribute}=>${JSON.stringify(messages)}`)
    .join(", ");
  return gitlabError(400, `Failed to save group {${shown}}`);
}
