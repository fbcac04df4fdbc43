import { selectedName } from "../../config/glob.js";
import type { ReadResult, RepoRef, ResourceReader } from "../context.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { defineKind } from "../kind.js";
import { verifyMemberWrite } from "./canonical.js";
import { groupAbove, projectAbove, projectNamespace } from "./above.js";
import { membersGraphql } from "./graphql.js";
import { KIND, planMembers } from "./plan.js";
import { topLevel, topLevelOf } from "./roles.js";
import { groupMembersSetting, projectMembersSetting } from "./settings.js";
import { exportGroupMembers, exportProjectMembers } from "./export.js";

/** A read made at most once, on first use. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= read());
}

/** The top-level group a project is under (its namespace's first segment). */
async function projectTop(reader: ResourceReader, at: RepoRef): Promise<ReadResult<string>> {
  const namespace = await projectNamespace(reader, at);
  return namespace.kind === "found" ? { kind: "found", data: topLevel(namespace.data) } : namespace;
}

/**
 * The members of GitLab projects and groups (issue #36, item 5): `members` in a `projects:` entry
 * and in a `groups:` entry. One kind with both parts, as GitLab serves both from one API ("Group
 * and project members API", lib/api/members.rb declares both in one loop): the same levels
 * (less Minimal Access on projects), the same inheritance and the same requests. docs/gitlab.md,
 * "Members". A project's members are read in bulk as a partial answer (./graphql.ts): GitLab's
 * `ProjectMember` shows no custom role, so what changes is planned from REST's listing.
 */
export const membersKind = defineKind({
  name: KIND,
  project: {
    setting: projectMembersSetting,
    plan: ({ reader, at, value, options }) => {
      const scope = selectedName(at.owner, at.name);
      return planMembers(
        {
          reader,
          scope,
          base: projectPath(at),
          what: "project",
          above: once(() => projectAbove(reader, at)),
          top: once(() => projectTop(reader, at)),
        },
        value,
        options.deleted?.at(reader.target, scope, KIND) ?? [],
      );
    },
    export: exportProjectMembers,
    graphql: membersGraphql,
  },
  group: {
    setting: groupMembersSetting,
    plan: ({ reader, at, value, options }) =>
      planMembers(
        {
          reader,
          scope: at,
          base: groupPath(at),
          what: "group",
          above: () => groupAbove(reader, at),
          top: () => topLevelOf(reader, at),
        },
        value,
        options.deleted?.at(reader.target, at, KIND) ?? [],
      ),
    export: exportGroupMembers,
  },
  verify: verifyMemberWrite,
});
