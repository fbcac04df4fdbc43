import * as z from "zod";
import { projectPath } from "../gitlab-paths.js";
import {
  pageOf,
  projectConnection,
  type RepositoryGraphqlRead,
  RestAnswers,
} from "../graphql-read.js";
import type { Members } from "./settings.js";

/**
 * A project's direct members over GitLab's GraphQL API, as a PARTIAL answer (../graphql-read.ts):
 * `projectMembers(relations: [DIRECT])` (doc/api/graphql/reference/_index.md at 0016ea05,
 * "Project.projectMembers", "ProjectMember") shows each member's user, level and expiry, but no
 * custom role, which REST's `member_role` shows and a change of level must name (./plan.ts). So
 * the answer stands for `GET /projects/:id/members` only while nothing changes: a member planned
 * otherwise is planned again from REST's listing.
 *
 * Read so only when the value is additive and names no custom role: an authoritative listing
 * deletes what it lacks, so it is read where GitLab documents it whole (REST), and a role written
 * is compared with the role held, which GraphQL does not show. A node without a user (a pending
 * invitation), an expiry not at midnight UTC (GitLab's `Time` of the membership's date, which
 * another time zone would shift to another day), a node with an error or a page that cannot be
 * read leaves the listing to REST.
 */

const FIRST_PAGE = 20;

const FIELDS = "accessLevel { integerValue } expiresAt user { id username }";

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

export const membersGraphql: RepositoryGraphqlRead<Members> = {
  partial: true,
  select: ({ value }) =>
    comparable(value)
      ? `projectMembers(relations: [DIRECT], first: ${FIRST_PAGE}) { ${pageOf(FIELDS)} }`
      : undefined,
  answer: async (part) => {
    const answers = new RestAnswers();
    const all = await projectConnection(part, "projectMembers", {
      field: "projectMembers(relations: [DIRECT])",
      nodes: FIELDS,
    });
    const parsed = z.array(node).safeParse(all?.nodes);
    if (all === undefined || all.failed.size > 0 || !parsed.success) return answers;
    const listed = parsed.data.map((member) => ({
      id: idOf(member.user.id),
      username: member.user.username,
      access_level: member.accessLevel.integerValue,
      expires_at: member.expiresAt?.slice(0, 10) ?? null,
    }));
    answers.listed(`${projectPath(part.repo)}/members`, listed, undefined, { partial: true });
    return answers;
  },
};
