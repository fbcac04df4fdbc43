import type { PrintBlock } from "../../config/spec.js";
import { mustFind, readFailure } from "../context.js";
import type { KindModule } from "../kind.js";
import {
  type CanonicalEnvironment,
  type ReadEnvironment,
  reviewersOf,
  verifyEnvironmentWrite,
} from "./canonical.js";
import { environmentsPath, listEnvironments, liveEnvironment, planEnvironments } from "./plan.js";
import {
  type EnvironmentSettings,
  type Environments,
  environmentRules,
  environmentsSchema,
} from "./settings.js";

/**
 * Deployment environments (`environments: {<name>: …}`), keyed by name in any case. A written
 * environment is managed whole; `null` deletes one (as every delete, only with --allow-delete);
 * environments not named are left alone. docs/kinds.md, "Environments".
 */

/** The value that reproduces a live environment: defaults are left out, as they are implied. */
function settingsOf(env: ReadEnvironment, live: CanonicalEnvironment): EnvironmentSettings {
  const settings: EnvironmentSettings = {};
  if (live.wait_timer > 0) settings.wait_timer = live.wait_timer;
  if (live.prevent_self_review) settings.prevent_self_review = true;
  // Logins and slugs as the service spells them.
  const { users, teams } = reviewersOf(env);
  if (users.length + teams.length > 0) {
    settings.reviewers = {
      ...(users.length > 0 ? { users } : {}),
      ...(teams.length > 0 ? { teams } : {}),
    };
  }
  const policy = live.deployment_branch_policy;
  if (policy !== null) {
    settings.deployment_branch_policy =
      "custom" in policy
        ? {
            custom: policy.custom.map(({ name, type }) =>
              type === "branch" ? { name } : { name, type },
            ),
          }
        : { protected_branches: true };
  }
  return settings;
}

export const environment: KindModule = {
  name: "environment",
  repository: {
    setting: {
      key: "environments",
      schema: environmentsSchema.describe(
        "Deployment environments by name; those not named are left alone.",
      ),
      rules: environmentRules,
      defines: (value) =>
        Object.keys(value as Environments).map((name) => ({
          id: `environment ${name.toLowerCase()}`,
          path: [name],
          what: `environment ${name}`,
        })),
      print: (value) =>
        Object.keys(value as Environments).map((name): PrintBlock => ({
          kind: "environment",
          name,
          path: [name],
        })),
    },
    plan: ({ reader, repo, value }) =>
      planEnvironments({ reader, repo, value: value as Environments }),
    export: async (reader, repo) => {
      const listed = mustFind(await listEnvironments(reader, repo), environmentsPath(repo));
      if (listed.length === 0) return undefined;
      const entries = await Promise.all(
        listed.map(async (env): Promise<[string, EnvironmentSettings]> => {
          const live = await liveEnvironment(reader, repo, env);
          if ("error" in live) throw readFailure(live.error);
          return [env.name, settingsOf(env, live.canonical)];
        }),
      );
      return Object.fromEntries(entries);
    },
  },
  verify: verifyEnvironmentWrite,
};
