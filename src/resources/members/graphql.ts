import * as z from "zod";
import { projectPath } from "../gitlab-paths.js";
import { projectListing } from "../graphql-read.js";
import type { Members } from "./settings.js";

/**
 * A project's direct members over GitLab's GraphQL API, as a PARTIAL answer (../graphql-read.ts):
 * `projectMembers(relations: [DIRECT])` (doc/api/graphql/reference/_index.md at 0016ea05,
 * "Project.projectMembers", "ProjectMember") shows each member's user, level and expiry, but no
 * custom role, which REST's `member_role` shows and a change of level must name (./plan.ts). So
 * the answer stands for `GET /projects/:id/members` only while nothing changes: a project whose
 * members change has them planned again from REST's listing.
 *
 * Read so only when the value is additive and names no custom role: an authoritative listing
 * deletes what it lacks, so it is read where GitLab documents it whole (REST), and a role written
 * is compared with the role held, which GraphQL does not show. A node without a user (a pending
 * invitation), an expiry not at midnight UTC (GitLab's `Time` of the membership's date, which
 * another time zone would shift to another day), a node with an error or a page that cannot be
 * read leaves the listing to REST.
 */

const node = z.looseObject({
  accessLevel: z.looseObject({ integerValue: z.number().int() }),
  expiresAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T00:00:00(\.0+)?Z$/)
    .nullable(),
  user: z.looseObject({ id: z.string().regex(/\/\d+$/), username: z.string().min(1) }),
});

const idOf = (gid: string) => Number(/(\d+)$/.exec(gid)![1]);

/** Whether a value's members can be compared with GraphQL's answer. */
function comparable(value: Members): boolean {
  if (value.mode === "authoritative") return false;
  return Object.values(value.users ?? {}).every(
    (member) =>
      member === null ||
      typeof member !== "object" ||
      !("member_role" in member) ||
      member.member_role === undefined,
  );
}

export const membersGraphql = projectListing<z.infer<typeof node>, Members>({
  connection: "projectMembers(relations: [DIRECT])",
  nodes: "accessLevel { integerValue } expiresAt user { id username }",
  node,
  path: (repo) => `${projectPath(repo)}/members`,
  listed: (nodes) =>
    nodes.map((member) => ({
      id: idOf(member.user.id),
      username: member.user.username,
      access_level: member.accessLevel.integerValue,
      expires_at: member.expiresAt?.slice(0, 10) ?? null,
    })),
  reads: comparable,
  partial: true,
});
