/**
 * The teams of many repositories of one organization, read from the organization's side: the
 * organization's teams (`GET /orgs/{org}/teams`, with their parents), then each team's repositories
 * (`GET /orgs/{org}/teams/{team_slug}/repos`, "a team's repositories visible to the authenticated
 * user", each with the team's role in `role_name`) — a request per team and 100 repositories, where
 * the repositories' own listings (`GET /repos/{owner}/{repo}/teams`) take one per repository. Both
 * listings show the teams visible to the credential, so they show the same teams.
 *
 * A repository's listing shows the teams granted the repository themselves (a child team whose
 * access is its parent's is not listed, mszostok/codeowners-validator#40); a team's listing also
 * shows its ancestors' repositories (octokit/octokit.net#1882), with the highest role. So a
 * repository in a team's listing is the team's own grant when no ancestor's listing shows it, or
 * when the team's role is higher than every ancestor's; otherwise (as high as an ancestor's, or a
 * custom role, whose level is not in the listing) that repository is read on its own. Security
 * manager teams read every repository (`access_source: organization` in the repository's listing)
 * beside what they are granted: one a security manager team's listing shows with the read role is
 * read on its own too. A listing that fails, or an organization with about as many teams as
 * repositories planned (no requests saved), leaves every repository to its own read.
 */
import * as z from "zod";
import { repoPath } from "../context.js";
import { listKey, RestAnswers } from "../graphql-read.js";
import type { OrganizationSideRead } from "../organization-side.js";
import { securityManagersOf } from "./organization.js";
import { apiPermission, builtInRole, levelOf, liveRole } from "./roles.js";
import type { AccessSettings } from "./settings.js";

const orgTeamShape = {
  name: "teams",
  schema: z.looseObject({
    slug: z.string().min(1),
    name: z.string(),
    parent: z.looseObject({ slug: z.string() }).nullable().optional(),
  }),
};

const teamRepositoryShape = {
  name: "team repositories",
  schema: z.looseObject({ full_name: z.string().min(1), role_name: z.string().min(1) }),
};

/** Whether the plan of this value lists the repository's teams (./index.ts `wants`). */
function readsTeams(value: AccessSettings): boolean {
  if (value.mode === "authoritative" && value.teams !== undefined) return true;
  return Object.keys(value.teams ?? {}).length > 0;
}

/**
 * Whether a team's listed role is its own grant, given what its ancestors' listings show of the
 * repository: yes when none shows it, or when the role is a built-in one higher than each of theirs.
 */
function ownGrant(role: string, inherited: ReadonlyArray<string | undefined>): boolean {
  const shown = inherited.filter((item): item is string => item !== undefined);
  if (shown.length === 0) return true;
  const own = builtInRole(role);
  if (own === undefined) return false;
  return shown.every((item) => {
    const theirs = builtInRole(item);
    return theirs !== undefined && levelOf(theirs) < levelOf(own);
  });
}

export const teamsFromOrganization: OrganizationSideRead<AccessSettings> = {
  wants: readsTeams,
  keys: (repo) => [listKey(`${repoPath(repo)}/teams`, undefined)],
  read: async (reader, org, repos) => {
    const answers = new RestAnswers();
    const base = `/orgs/${encodeURIComponent(org)}/teams`;
    const teams = await reader.list(base, undefined, orgTeamShape);
    if (teams.kind !== "found") return answers;
    // The organization's roles (two requests), a listing per team: fewer than a read per repository.
    if (teams.data.length + 2 >= repos.length) return answers;
    const managers = await securityManagersOf(reader, org);
    if (managers.kind !== "found") return answers;
    const listings = await Promise.all(
      teams.data.map((team) =>
        reader.list(
          `${base}/${encodeURIComponent(team.slug)}/repos`,
          undefined,
          teamRepositoryShape,
        ),
      ),
    );
    const granted: Array<Map<string, string>> = [];
    for (const listing of listings) {
      if (listing.kind !== "found") return answers;
      granted.push(
        new Map(listing.data.map((repo) => [repo.full_name.toLowerCase(), repo.role_name])),
      );
    }
    const bySlug = new Map(teams.data.map((team, index) => [team.slug.toLowerCase(), index]));
    /** The listings of a team's ancestors (an unknown parent: undefined, nothing to trust). */
    const ancestors = (index: number): Array<Map<string, string>> | undefined => {
      const found: Array<Map<string, string>> = [];
      const seen = new Set<number>([index]);
      for (let parent = teams.data[index]!.parent; parent;) {
        const at = bySlug.get(parent.slug.toLowerCase());
        if (at === undefined || seen.has(at)) return undefined;
        seen.add(at);
        found.push(granted[at]!);
        parent = teams.data[at]!.parent;
      }
      return found;
    };
    const lineage = teams.data.map((_, index) => ancestors(index));
    for (const repo of repos) {
      const key = `${repo.owner}/${repo.name}`.toLowerCase();
      const items: Array<Record<string, string>> = [];
      let exact = true;
      for (const [index, team] of teams.data.entries()) {
        const role = granted[index]!.get(key);
        const manager = managers.data.has(team.slug.toLowerCase());
        if (role !== undefined) {
          const above = lineage[index];
          if (
            above === undefined ||
            !ownGrant(
              role,
              above.map((listing) => listing.get(key)),
            )
          ) {
            exact = false;
          }
          if (manager && builtInRole(role) === "read") exact = false;
          const permission = apiPermission(liveRole(role));
          items.push({ slug: team.slug, name: team.name, permission, access_source: "direct" });
        } else if (manager) {
          items.push({
            slug: team.slug,
            name: team.name,
            permission: "pull",
            access_source: "organization",
          });
        }
      }
      if (exact) answers.listed(`${repoPath(repo)}/teams`, items);
    }
    return answers;
  },
};
