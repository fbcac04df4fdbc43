import * as z from "zod";
import { check, type SeedPath, type SeedView } from "../../core/seed.js";
import { settingsOf } from "../organization-settings/records.js";
import type { GithubWorld } from "../world/records.js";
import {
  type ActionsStore,
  defaultPolicy,
  organizationActionsOf,
  repositoryActionsOf,
  type StoredSecret,
  storeOf,
  type Variable,
} from "./records.js";
import { sha256 } from "./sealed-box.js";

/**
 * The Actions part of the seed format: a repository's and an organization's Actions permissions,
 * variables and secrets (plaintext: the sandbox keeps only a digest of each secret, as if it had
 * been sent).
 */

/** GitHub's secret and variable names: letters, digits and _, not starting with a digit or GITHUB_. */
export const actionsName = z
  .string()
  .regex(/^(?!GITHUB_)[A-Za-z_][A-Za-z0-9_]*$/i, "expected a name of letters, digits and _");

const selectedActions = z.strictObject({
  github_owned_allowed: z.boolean().default(true),
  verified_allowed: z.boolean().default(false),
  patterns_allowed: z.array(z.string()).default([]),
});

/** Actions permissions; what is left out is GitHub's default for a new repository or organization. */
const actionsPolicy = {
  allowed_actions: z.enum(["all", "local_only", "selected"]).default("all"),
  sha_pinning_required: z.boolean().default(false),
  selected_actions: selectedActions.default({
    github_owned_allowed: true,
    verified_allowed: false,
    patterns_allowed: [],
  }),
  default_workflow_permissions: z.enum(["read", "write"]).default("read"),
  can_approve_pull_request_reviews: z.boolean().default(false),
};

const repositoryActions = z.strictObject({
  enabled: z.boolean().default(true),
  ...actionsPolicy,
  access_level: z.enum(["none", "user", "organization"]).default("none"),
});

const organizationActions = z.strictObject({
  enabled_repositories: z.enum(["all", "none", "selected"]).default("all"),
  /** With `selected`: repository names of the organization. */
  selected_repositories: z.array(z.string()).default([]),
  ...actionsPolicy,
});

/** Plaintext values by name. */
export const values = z.record(actionsName, z.string()).default({});

/** An organization variable or secret: its value, and the repositories (by name) it is shared with. */
const shared = z.strictObject({
  name: actionsName,
  value: z.string(),
  visibility: z.enum(["all", "private", "selected"]).default("all"),
  selected_repositories: z.array(z.string()).default([]),
});

export const actionsSeed = {
  organizations: {
    actions: organizationActions.default(organizationActions.parse({})),
    variables: z.array(shared).default([]),
    secrets: z.array(shared).default([]),
    dependabot_secrets: z.array(shared).default([]),
  },
  repositories: {
    actions: repositoryActions.default(repositoryActions.parse({})),
    variables: values,
    secrets: values,
    dependabot_secrets: values,
  },
};

type ActionsSeed = SeedView<typeof actionsSeed>;
type PolicySeed =
  ActionsSeed["repositories"][number]["actions"] | ActionsSeed["organizations"][number]["actions"];

function policyFromSeed(seed: PolicySeed) {
  return {
    ...defaultPolicy(),
    allowed_actions: seed.allowed_actions,
    sha_pinning_required: seed.sha_pinning_required,
    selected: { ...seed.selected_actions },
    default_workflow_permissions: seed.default_workflow_permissions,
    can_approve_pull_request_reviews: seed.can_approve_pull_request_reviews,
  };
}

/** Puts a place's seeded values in its store; names as GitHub keeps them, upper-cased. */
export function fillStore(
  store: ActionsStore,
  seed: {
    variables: Record<string, string>;
    secrets: Record<string, string>;
    dependabot_secrets?: Record<string, string>;
  },
  stamp: string,
): void {
  for (const [name, value] of Object.entries(seed.variables)) {
    const upper = name.toUpperCase();
    store.variables.set(upper, { name: upper, value, created_at: stamp, updated_at: stamp });
  }
  const secret = (name: string, value: string): StoredSecret => ({
    name: name.toUpperCase(),
    created_at: stamp,
    updated_at: stamp,
    sha256: sha256(value),
  });
  for (const [name, value] of Object.entries(seed.secrets))
    store.secrets.set(name.toUpperCase(), secret(name, value));
  for (const [name, value] of Object.entries(seed.dependabot_secrets ?? {}))
    store.dependabot.set(name.toUpperCase(), secret(name, value));
}

/**
 * A repository's Actions settings and store; an organization's, which name repositories, once
 * every repository exists. An organization's values are stamped with its creation.
 */
export function buildActions(world: GithubWorld, seed: ActionsSeed): void {
  seed.repositories.forEach((repoSeed, index) => {
    const repo = world.seeded.repositories[index];
    if (repo === undefined) return;
    Object.assign(repositoryActionsOf(repo), {
      enabled: repoSeed.actions.enabled,
      ...policyFromSeed(repoSeed.actions),
      access_level: repoSeed.actions.access_level,
    });
    fillStore(storeOf(repo), repoSeed, repo.created_at);
  });
  seed.organizations.forEach((orgSeed, index) => {
    const org = world.seeded.organizations[index];
    if (org === undefined) return;
    const login = org.account.login;
    const path: SeedPath = ["organizations", index];
    const idsOf = (names: readonly string[], at: SeedPath) =>
      new Set(
        names.map((name, position) => {
          const repo = world.repository(login, name);
          check(repo !== undefined, [...at, position], `unknown repository '${name}' of ${login}`);
          return repo.id;
        }),
      );
    Object.assign(organizationActionsOf(org), {
      enabled_repositories: orgSeed.actions.enabled_repositories,
      selected_repositories: idsOf(orgSeed.actions.selected_repositories, [
        ...path,
        "actions",
        "selected_repositories",
      ]),
      ...policyFromSeed(orgSeed.actions),
    });
    const stamp = settingsOf(org).created_at;
    const store = storeOf(org);
    const sharedOf = (item: (typeof orgSeed.variables)[number], at: SeedPath) => ({
      visibility: item.visibility,
      selected: idsOf(item.selected_repositories, [...at, "selected_repositories"]),
    });
    orgSeed.variables.forEach((item, at) => {
      const name = item.name.toUpperCase();
      const variable: Variable = {
        name,
        value: item.value,
        created_at: stamp,
        updated_at: stamp,
        shared: sharedOf(item, [...path, "variables", at]),
      };
      store.variables.set(name, variable);
    });
    for (const [key, secrets] of [
      ["secrets", store.secrets],
      ["dependabot_secrets", store.dependabot],
    ] as const) {
      orgSeed[key].forEach((item, at) => {
        const name = item.name.toUpperCase();
        secrets.set(name, {
          name,
          created_at: stamp,
          updated_at: stamp,
          sha256: sha256(item.value),
          shared: sharedOf(item, [...path, key, at]),
        });
      });
    }
  });
}
