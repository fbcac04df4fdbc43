/**
 * An organization's teams by id and slug (`GET /orgs/{org}/teams`), read once per run: rulesets and
 * environments name teams by slug where GitHub takes ids, and share the one listing. A team that
 * the same apply creates is named by slug in the request that needs it, never by an id read here.
 */
import * as z from "zod";
import type { ChangeError } from "../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "./context.js";
import { oncePerOrganization } from "./once-per-organization.js";

const teamShape = {
  name: "teams",
  schema: z.looseObject({ id: z.number().int(), slug: z.string() }),
};

export type OrganizationTeam = z.infer<typeof teamShape.schema>;

export function teamsPath(org: string): string {
  return `/orgs/${encodeURIComponent(org)}/teams`;
}

export const organizationTeams = oncePerOrganization(
  (reader, org): Promise<ReadResult<OrganizationTeam[]>> =>
    reader.list(teamsPath(org), undefined, teamShape),
);

/** The id of the organization's team of this slug (in any case), or why there is none. */
export async function teamIdOf(
  reader: ResourceReader,
  owner: string,
  slug: string,
): Promise<{ id: number } | { error: ChangeError }> {
  const path = teamsPath(owner);
  const teams = await organizationTeams(reader, owner);
  if (teams.kind === "error") return { error: teams.error };
  if (teams.kind === "absent") {
    return {
      error: changeError(
        `teams belong to organizations, and ${owner} is not one`,
        "GET",
        path,
        404,
      ),
    };
  }
  const found = teams.data.find((team) => team.slug.toLowerCase() === slug.toLowerCase());
  if (found === undefined) {
    return { error: changeError(`team "${slug}" does not exist in ${owner}`, "GET", path, 200) };
  }
  return { id: found.id };
}
