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
 * A project's direct members over GitLab's GraphQL API: `projectMembers(relations: [DIRECT])`
 * stands for `GET /projects/:id/members` (the direct members: MembersFinder with the `direct`
 * relation, as REST's `find_members` without `/all`), with what the planner reads of each — the
 * user's id and username, the access level and the expiry date — in REST's order, by user id.
 *
 * Left to REST, never guessed: a member with a custom role (REST's `member_role` carries the
 * role's base access level, which this read does not ask), one GraphQL shows without a user (an
 * invitation), an expiry that is not a date at midnight UTC (REST answers a date), an error, or a
 * page that cannot be read. The effective members (`/members/all`, with the groups' above and
 * the groups the project is shared with) stay on REST: which relations REST's listing takes is
 * not what GraphQL's default relations are.
 */

const FIRST_PAGE = 20;
const RELATIONS = "relations: [DIRECT]";
const FIELDS = "user { id username } accessLevel { integerValue } expiresAt memberRole { id name }";

const node = z.looseObject({
  user: z.looseObject({
    id: z.string().regex(/^gid:\/\/gitlab\/User\/\d+$/),
    username: z.string(),
  }),
  accessLevel: z.looseObject({ integerValue: z.number().int() }),
  expiresAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T00:00:00(\.0+)?Z$/)
    .nullable(),
  memberRole: z.null(),
});

export const memberGraphql: RepositoryGraphqlRead<Members> = {
  select: () => `projectMembers(${RELATIONS}, first: ${FIRST_PAGE}) { ${pageOf(FIELDS)} }`,
  answer: async (part) => {
    const answers = new RestAnswers();
    const all = await projectConnection(part, "projectMembers", {
      field: `projectMembers(${RELATIONS})`,
      nodes: FIELDS,
    });
    const parsed = z.array(node).safeParse(all?.nodes);
    if (all === undefined || all.failed.size > 0 || !parsed.success) return answers;
    const listed = parsed.data
      .map((member) => ({
        id: Number(member.user.id.slice("gid://gitlab/User/".length)),
        username: member.user.username,
        access_level: member.accessLevel.integerValue,
        expires_at: member.expiresAt === null ? null : member.expiresAt.slice(0, 10),
      }))
      .sort((a, b) => a.id - b.id);
    answers.listed(`${projectPath(part.repo)}/members`, listed);
    return answers;
  },
};
