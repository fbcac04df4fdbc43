/** A team as forgeplan compares it: GitHub's Team as listed, and what a write must read back. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";

export const teamShape = {
  name: "teams",
  schema: z.looseObject({
    slug: z.string().min(1),
    name: z.string(),
    description: z.string().nullable(),
    privacy: z.enum(["secret", "closed"]),
    notification_setting: z.enum(["notifications_enabled", "notifications_disabled"]),
    parent: z
      .looseObject({ slug: z.string().min(1) })
      .nullable()
      .optional(),
  }),
};

/** A team as compared: the fields a team is written with. */
export interface CanonicalTeam {
  name: string;
  description: string;
  privacy: "secret" | "closed";
  notification_setting: "notifications_enabled" | "notifications_disabled";
  parent: string | null;
}

export type LiveTeams = ReadonlyMap<string, CanonicalTeam & { slug: string }>;

export function canonical(
  team: z.infer<typeof teamShape.schema>,
): CanonicalTeam & { slug: string } {
  return {
    slug: team.slug,
    name: team.name,
    // GitHub answers a team without a description with null; the PATCH body takes a string.
    description: team.description ?? "",
    privacy: team.privacy,
    notification_setting: team.notification_setting,
    parent: team.parent?.slug.toLowerCase() ?? null,
  };
}

export /** A team as a plan shows it: a team without a parent shows none, rather than `parent: null`. */
function diffable(team: Partial<CanonicalTeam>): Partial<CanonicalTeam> {
  const { parent, ...rest } = team;
  return parent === null || parent === undefined ? rest : { ...rest, parent };
}

export function orgTeamsPath(org: string): string {
  return `/orgs/${encodeURIComponent(org)}/teams`;
}

const teamAnswer = z.looseObject({
  name: z.string(),
  description: z.string().nullable(),
  privacy: z.string().optional(),
  notification_setting: z.string().optional(),
  parent: z.looseObject({ slug: z.string() }).nullable().optional(),
});
const membershipAnswer = z.looseObject({ role: z.string(), state: z.string() });

/**
 * What a team's answer must show of what was written; a membership's, its role (an organization
 * owner's reads maintainer whatever was sent: "The role for organization owners is set to
 * maintainer").
 */
export function verifyTeamWrite(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method === "DELETE") return [];
  const sent = (request.body ?? {}) as Record<string, unknown>;
  if (request.path.includes("/memberships/")) {
    const parsed = membershipAnswer.safeParse(response);
    if (!parsed.success)
      return [{ path: "(response)", before: "a team membership", after: "something else" }];
    const { role } = parsed.data;
    return role === sent.role || role === "maintainer"
      ? []
      : [{ path: "role", before: sent.role, after: role }];
  }
  const parsed = teamAnswer.safeParse(response);
  if (!parsed.success) return [{ path: "(response)", before: "a team", after: "something else" }];
  const answer = parsed.data;
  const expected: Record<string, unknown> = {};
  const got: Record<string, unknown> = {};
  for (const key of ["name", "description", "privacy", "notification_setting"] as const) {
    if (sent[key] === undefined) continue;
    expected[key] = sent[key];
    got[key] = key === "description" ? (answer.description ?? "") : answer[key];
  }
  if ("parent_team_slug" in sent || "parent_team_id" in sent) {
    expected.parent = sent.parent_team_slug ?? null;
    got.parent = answer.parent?.slug ?? null;
  }
  return diffValues(expected, got);
}
