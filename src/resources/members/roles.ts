/**
 * The custom roles (Ultimate) a member may be given, read once per place: on GitLab.com a
 * top-level group's (`GET /groups/:id/member_roles`), on GitLab Self-Managed the instance's (`GET
 * /member_roles`). Each answers 400 on the other offering (GitLab's lib/api/member_roles.rb:
 * `bad_request!` unless, or if, `Gitlab::Saas.feature_available?(:gitlab_com_subscriptions)`), so
 * the group's are read first and the instance's on a 400. Source: GitLab's "Member roles API"
 * (doc/api/member_roles.md).
 */
import * as z from "zod";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import { groupPath } from "../gitlab-paths.js";

const roleShape = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  base_access_level: z.number().int(),
});

export type MemberRole = z.infer<typeof roleShape>;

const rolesList = { name: "member roles", schema: z.array(roleShape) };

const groupAnswer = {
  name: "a group",
  schema: z.looseObject({ full_path: z.string().min(1) }),
};

/** The path of the top-level group above a namespace written by path: its first segment. */
export function topLevel(namespace: string): string {
  return namespace.split("/")[0]!;
}

/**
 * The top-level group of a group written by its id: its answer's `full_path` says it (GitLab's
 * `full_path` is the path from the top-level group down).
 */
export async function topLevelOf(
  reader: ResourceReader,
  group: string,
): Promise<ReadResult<string>> {
  if (!/^\d+$/.test(group)) return { kind: "found", data: topLevel(group) };
  const path = groupPath(group);
  const read = await reader.getOrAbsent(path, groupAnswer);
  if (read.kind === "absent") {
    return {
      kind: "error",
      error: changeError(
        `group ${group} was not found (or ${reader.credential} cannot see it)`,
        "GET",
        path,
        404,
      ),
    };
  }
  if (read.kind === "error") return read;
  return { kind: "found", data: topLevel(read.data.full_path) };
}

/** The roles members under a top-level group may have: the group's, else the instance's. */
export async function readMemberRoles(
  reader: ResourceReader,
  top: string,
): Promise<ReadResult<MemberRole[]>> {
  const path = `${groupPath(top)}/member_roles`;
  const read = await reader.getOrAbsent(path, rolesList);
  if (read.kind === "found") return read;
  if (read.kind === "error" && read.error.status === 400) {
    const instance = "/api/v4/member_roles";
    const roles = await reader.getOrAbsent(instance, rolesList);
    if (roles.kind !== "absent") return roles;
    return {
      kind: "error",
      error: changeError(
        `the instance's custom roles were not found (GET ${instance} answered 404)`,
        "GET",
        instance,
        404,
      ),
    };
  }
  if (read.kind === "absent") {
    return {
      kind: "error",
      error: changeError(
        `the custom roles of group ${top} were not found (or ${reader.credential} cannot see them)`,
        "GET",
        path,
        404,
      ),
    };
  }
  return read;
}
