import { SeedError } from "./file.js";
import {
  DEFAULT_REPOSITORY_ACTIONS,
  type PropertySeed,
  type RepositorySeed,
  type WorldSeed,
} from "./schema.js";

export const GENERATED_HOOK_URLS = [
  { url: "https://ci.acme.example/hooks/forge", events: ["push"] },
  { url: "https://chat.acme.example/notify", events: ["issues"] },
] as const;

/** How many teams the generated repositories are spread over, in turn: team-01 … team-10. */
export const GENERATED_TEAMS = 10;

/** The custom property the generated repositories carry, defined on acme when the seed does not. */
const TEAM_PROPERTY: PropertySeed = {
  property_name: "team",
  value_type: "string",
  required: false,
  default_value: null,
  description: "The team that owns the repository",
  allowed_values: null,
  values_editable_by: "org_actors",
};

/**
 * Adds `acme/repo-0001` … `acme/repo-N` (zero-padded to 4 digits, wider when N needs it), each with
 * branches `main` and `dev`, two webhooks and the custom property `team` (team-01 … team-10 in
 * turn), for scale tests and benchmarks.
 */
export function withGeneratedRepositories(seed: WorldSeed, count: number): WorldSeed {
  if (count === 0) return seed;
  const acme = seed.organizations.find((org) => org.login.toLowerCase() === "acme");
  if (acme === undefined) {
    throw new SeedError("--generate needs an organization 'acme' in the seed");
  }
  const definesTeam = acme.custom_properties.some(
    (property) => property.property_name.toLowerCase() === "team",
  );
  const width = Math.max(4, String(count).length);
  let hookId = 0;
  for (const repo of seed.repositories)
    for (const hook of repo.hooks) hookId = Math.max(hookId, hook.id);
  // Hook ids are one sequence across repositories and organizations: no generated one takes one
  // an organization's hook has.
  const taken = new Set(seed.organizations.flatMap((org) => org.hooks.map((hook) => hook.id)));
  const nextHookId = () => {
    do hookId++;
    while (taken.has(hookId));
    return hookId;
  };
  let repoId = 0;
  for (const repo of seed.repositories) repoId = Math.max(repoId, repo.id ?? 0);
  const generated: RepositorySeed[] = [];
  for (let index = 1; index <= count; index++) {
    generated.push({
      full_name: `acme/repo-${String(index).padStart(width, "0")}`,
      id: Math.max(100_000, repoId) + index,
      private: true,
      description: null,
      default_branch: "main",
      allow_squash_merge: true,
      allow_rebase_merge: true,
      allow_merge_commit: true,
      created_at: "2026-01-02T09:00:00Z",
      collaborators: {},
      teams: {},
      recent_checks: {},
      branches: [{ name: "main" }, { name: "dev" }],
      hooks: GENERATED_HOOK_URLS.map((hook) => ({
        id: nextHookId(),
        config: { url: hook.url, content_type: "json" },
        events: [...hook.events],
        active: true,
        branch_filter: "*",
        created_at: "2026-01-02T09:00:00Z",
        updated_at: "2026-01-02T09:00:00Z",
      })),
      invitations: [],
      rulesets: [],
      custom_properties: {
        team: `team-${String(((index - 1) % GENERATED_TEAMS) + 1).padStart(2, "0")}`,
      },
      actions: structuredClone(DEFAULT_REPOSITORY_ACTIONS),
      variables: {},
      secrets: {},
      dependabot_secrets: {},
      environments: [],
    });
  }
  const organizations = definesTeam
    ? seed.organizations
    : seed.organizations.map((org) =>
        org === acme
          ? { ...org, custom_properties: [...org.custom_properties, TEAM_PROPERTY] }
          : org,
      );
  return { ...seed, organizations, repositories: [...seed.repositories, ...generated] };
}
