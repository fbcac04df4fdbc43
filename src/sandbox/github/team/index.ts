import * as z from "zod";
import { check, login, maxOf, SEEDED_AT, type SeedPath, type SeedView } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { type GithubWorld, type Organization, resolveRole } from "../world/records.js";
import { teamPermissions } from "./app-permissions.js";
import {
  securityManagersOf,
  type Team,
  teamGrantsOf,
  teamIds,
  teamRole,
  teamsOf,
} from "./records.js";
import { teamRoutes } from "./routes.js";

/**
 * An organization's teams and their members (the `team` kind), and the repositories granted to
 * each (the access kind sets them, access/routes.ts; the seed's `teams` of a repository).
 */

const team = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]+$/, "expected a team slug"),
  id: z.number().int().positive(),
  name: z.string(),
  description: z.string().nullable().default(null),
  /** Visible to every member of the organization (closed), or to its own members only (secret). */
  privacy: z.enum(["secret", "closed"]).default("closed"),
  notification_setting: z
    .enum(["notifications_enabled", "notifications_disabled"])
    .default("notifications_enabled"),
  /** The slug of the parent team, defined earlier in the list. */
  parent: z.string().optional(),
  members: z.record(login, z.enum(["member", "maintainer"])).default({}),
  /** Assigned the organization's predefined security_manager role. */
  security_manager: z.boolean().default(false),
});

const teamSeed = {
  organizations: { teams: z.array(team).default([]) },
  /** Team grants: pull | triage | push | maintain | admin, or a custom role of the organization. */
  repositories: { teams: z.record(z.string(), z.string().min(1)).default({}) },
};

type TeamSeed = z.output<typeof team>;

/** A team of the seed: its parent defined before it, its members users of the organization. */
function buildTeam(world: GithubWorld, org: Organization, seed: TeamSeed, path: SeedPath): Team {
  const parent = seed.parent === undefined ? null : (teamsOf(org).get(seed.parent) ?? null);
  check(
    seed.parent === undefined || parent !== null,
    [...path, "parent"],
    `parent team '${seed.parent}' is not defined before this team`,
  );
  const privacy = seed.privacy;
  check(
    privacy === "closed" || parent === null,
    [...path, "privacy"],
    "a team with a parent is closed (GitHub: the privacy of a nested team cannot be secret)",
  );
  check(
    parent === null || parent.privacy === "closed",
    [...path, "parent"],
    `parent team '${seed.parent}' is secret; a parent team is closed`,
  );
  const built: Team = {
    id: seed.id,
    slug: seed.slug,
    name: seed.name,
    description: seed.description,
    org,
    privacy,
    notification_setting: seed.notification_setting,
    parent,
    members: new Map(),
    pending: new Map(),
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
  };
  for (const [name, role] of Object.entries(seed.members)) {
    const user = world.account(name);
    check(user?.type === "User", [...path, "members", name], `unknown user '${name}'`);
    check(
      org.owners.has(user.id) || org.members.has(user.id),
      [...path, "members", name],
      `'${name}' is not a member of ${org.account.login}`,
    );
    built.members.set(user.id, role);
  }
  if (seed.security_manager) securityManagersOf(org).add(seed.id);
  return built;
}

function buildTeams(world: GithubWorld, seed: SeedView<typeof teamSeed>): void {
  const ids = new Set<number>();
  seed.organizations.forEach((orgSeed, index) => {
    const org = world.seeded.organizations[index];
    if (org === undefined) return;
    const path: SeedPath = ["organizations", index];
    const teams = teamsOf(org);
    orgSeed.teams.forEach((teamEntry, at) => {
      check(
        !teams.has(teamEntry.slug),
        [...path, "teams", at, "slug"],
        `team '${teamEntry.slug}' is defined twice`,
      );
      check(
        !ids.has(teamEntry.id),
        [...path, "teams", at, "id"],
        `team id ${teamEntry.id} is used twice`,
      );
      ids.add(teamEntry.id);
      teams.set(teamEntry.slug, buildTeam(world, org, teamEntry, [...path, "teams", at]));
    });
  });
  teamIds(world).next = maxOf(ids) + 1;
  seed.repositories.forEach((repoSeed, index) => {
    const repo = world.seeded.repositories[index];
    if (repo === undefined) return;
    const owner = repo.owner.login;
    for (const [slug, written] of Object.entries(repoSeed.teams)) {
      const at = ["repositories", index, "teams", slug];
      const found = repo.org === null ? undefined : teamsOf(repo.org).get(slug.toLowerCase());
      check(found !== undefined, at, `unknown team '${slug}' of ${owner}`);
      const role = resolveRole(repo.org, written);
      check(
        role !== undefined,
        at,
        `'${written}' is not pull, triage, push, maintain, admin or a custom role of ${owner}`,
      );
      teamGrantsOf(repo).set(found.id, role);
    }
  });
}

/** What the `full` profile of `--generate` grants the demo world's two teams on each repository. */
export const GENERATED_TEAM_GRANTS = { platform: "push", "release-managers": "maintain" } as const;

export const teams = githubArea({
  name: "team",
  seed: teamSeed,
  demo: {
    organizations: [
      {
        login: "acme",
        teams: [
          {
            slug: "platform",
            id: 1,
            name: "Platform",
            description: "Runs the build platform",
            members: { "octo-dev": "maintainer" },
          },
          {
            slug: "release-managers",
            id: 2,
            name: "Release managers",
            description: null,
            parent: "platform",
            members: { "octo-admin": "maintainer" },
          },
          {
            slug: "security",
            id: 3,
            name: "Security",
            description: "Security managers of acme",
            security_manager: true,
          },
        ],
      },
    ],
    repositories: [
      { full_name: "acme/api", teams: { platform: "push", "release-managers": "maintain" } },
      { full_name: "acme/web", teams: { platform: "push" } },
    ],
  },
  build: buildTeams,
  grants: teamRole,
  generate: (_seed, run) => ({
    repository: (entry) => {
      entry.teams = run.profile === "full" ? { ...GENERATED_TEAM_GRANTS } : {};
    },
  }),
  routes: teamRoutes,
  permissions: teamPermissions,
});
