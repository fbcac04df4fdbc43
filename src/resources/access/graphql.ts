import * as z from "zod";
import { repoPath } from "../context.js";
import {
  pageOf,
  type RepositoryGraphqlRead,
  repositoryConnection,
  RestAnswers,
} from "../graphql-read.js";
import { builtInRole } from "./roles.js";
import type { AccessSettings } from "./settings.js";

/**
 * A repository's direct collaborators over GraphQL: `collaborators(affiliation: DIRECT)`, whose
 * schema describes DIRECT in the words GitHub's REST docs use for `affiliation=direct` ("all
 * collaborators with permissions to an organization-owned repository, regardless of organization
 * membership status"), each edge's `permission` the user's highest role as REST's `role_name` is.
 *
 * What GraphQL cannot show stays on REST:
 * - a custom repository role: an edge's `permission` is the RepositoryPermission enum, five
 *   built-in levels, where REST's `role_name` names the custom role. The edge's
 *   `permissionSources` name each source's role (`roleName`); a repository where any source's role
 *   is not one of the five, or one without them, lists its collaborators over REST.
 * - pending invitations: GitHub's schema has no repository invitations (only an enterprise's), so
 *   they are read over REST, and only for a repository whose plan needs them (./reads.ts).
 * - teams: the schema has no repository-to-teams connection; from the organization side,
 *   `Team.repositories` edges carry only the five built-in levels and do not say whether the team's
 *   access is its own grant or a parent team's (REST's `access_source`), so a repository's teams are
 *   read over REST.
 * A collaborators field that failed (FORBIDDEN without push access) is left to REST, whose 403 is
 * the error shown.
 */

const EDGE = "permission permissionSources { roleName } node { login }";

const edge = z.looseObject({
  permission: z.enum(["READ", "TRIAGE", "WRITE", "MAINTAIN", "ADMIN"]),
  permissionSources: z.array(z.looseObject({ roleName: z.string().nullable() })),
  node: z.looseObject({ login: z.string().min(1) }),
});

/** Whether the plan of this value lists the collaborators (./index.ts `wants`). */
function readsUsers(value: AccessSettings): boolean {
  if (value.mode === "authoritative" && value.users !== undefined) return true;
  return Object.keys(value.users ?? {}).length > 0;
}

/** Every source names a built-in role: the edge's `permission` is then the highest as REST lists it. */
function builtInOnly(sources: ReadonlyArray<{ roleName: string | null }>): boolean {
  return (
    sources.length > 0 &&
    sources.every(({ roleName }) => roleName !== null && builtInRole(roleName) !== undefined)
  );
}

export const accessGraphql: RepositoryGraphqlRead<AccessSettings> = {
  select: ({ value }) =>
    readsUsers(value)
      ? `collaborators(first: 100, affiliation: DIRECT) { ${pageOf(EDGE, true)} }`
      : undefined,
  answer: async (part) => {
    const answers = new RestAnswers();
    const all = await repositoryConnection(part, "collaborators", {
      field: "collaborators(affiliation: DIRECT)",
      nodes: EDGE,
      edges: true,
    });
    const parsed = z.array(edge).safeParse(all?.nodes);
    if (all === undefined || all.failed.size > 0 || !parsed.success) return answers;
    if (!parsed.data.every((item) => builtInOnly(item.permissionSources))) return answers;
    answers.listed(
      `${repoPath(part.repo)}/collaborators`,
      parsed.data.map((item) => ({
        login: item.node.login,
        role_name: item.permission.toLowerCase(),
      })),
      { affiliation: "direct" },
    );
    return answers;
  },
};
