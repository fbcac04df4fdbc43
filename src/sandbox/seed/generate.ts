import { SeedError } from "./file.js";
import {
  DEFAULT_REPOSITORY_ACTIONS,
  type PropertySeed,
  type RepositorySeed,
  repositorySeed,
} from "../github/legacy/schema.js";
import type { WorldSeed } from "./schema.js";

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
 * What the `full` profile adds to every generated repository, as a user's repositories have it:
 * `main` protected (a strict check from the demo world's ci-bot, one approving review) and `dev`
 * (linear history), a collaborator, the demo world's two teams, and a ruleset on the default branch
 * that only admins may bypass. The repository's ruleset id is `RULESET_IDS + index`.
 */
export const GENERATED_FULL = {
  protections: {
    main: {
      required_status_checks: { strict: true, checks: [{ context: "ci/build", app_id: 15368 }] },
      enforce_admins: false,
      required_pull_request_reviews: {
        dismiss_stale_reviews: true,
        require_code_owner_reviews: false,
        required_approving_review_count: 1,
        require_last_push_approval: false,
      },
      restrictions: null,
    },
    dev: {
      required_status_checks: null,
      enforce_admins: false,
      required_pull_request_reviews: null,
      restrictions: null,
      required_linear_history: true,
    },
  },
  collaborators: { "octo-dev": "push" },
  teams: { platform: "push", "release-managers": "maintain" },
  ruleset: {
    name: "baseline",
    target: "branch",
    enforcement: "active",
    conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
    rules: [{ type: "deletion" }, { type: "non_fast_forward" }],
    bypass_actors: [{ actor_id: 5, actor_type: "RepositoryRole", bypass_mode: "always" }],
  },
} as const;

const RULESET_IDS = 1_000_000;

/** `basic`: branches, hooks and the team property; `full`: also what GENERATED_FULL lists. */
export type GeneratedProfile = "basic" | "full";

/**
 * Adds `acme/repo-0001` … `acme/repo-N` (zero-padded to 4 digits, wider when N needs it), each with
 * branches `main` and `dev`, two webhooks and the custom property `team` (team-01 … team-10 in
 * turn), for scale tests and benchmarks; with the `full` profile also protections, access and a
 * ruleset (GENERATED_FULL), the state a drift check of many repositories reads.
 */
export function withGeneratedRepositories(
  seed: WorldSeed,
  count: number,
  profile: GeneratedProfile = "basic",
): WorldSeed {
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
    // Parsed, so each field the seed schema defaults (repository settings among them) is filled.
    generated.push(
      repositorySeed.parse({
        full_name: `acme/repo-${String(index).padStart(width, "0")}`,
        id: Math.max(100_000, repoId) + index,
        private: true,
        description: null,
        default_branch: "main",
        allow_squash_merge: true,
        allow_rebase_merge: true,
        allow_merge_commit: true,
        created_at: "2026-01-02T09:00:00Z",
        ...(profile === "full"
          ? {
              collaborators: { ...GENERATED_FULL.collaborators },
              teams: { ...GENERATED_FULL.teams },
              recent_checks: { "ci/build": 15368 },
              branches: Object.entries(GENERATED_FULL.protections).map(([name, protection]) => ({
                name,
                protection: structuredClone(protection),
              })),
              rulesets: [{ id: RULESET_IDS + index, ...structuredClone(GENERATED_FULL.ruleset) }],
            }
          : {
              collaborators: {},
              teams: {},
              recent_checks: {},
              branches: [{ name: "main" }, { name: "dev" }],
              rulesets: [],
            }),
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
        issues: [],
        environments: [],
        autolinks: [],
        custom_properties: {
          team: `team-${String(((index - 1) % GENERATED_TEAMS) + 1).padStart(2, "0")}`,
        },
        actions: structuredClone(DEFAULT_REPOSITORY_ACTIONS),
        variables: {},
        secrets: {},
        dependabot_secrets: {},
      }),
    );
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
