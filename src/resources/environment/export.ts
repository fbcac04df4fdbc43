import { mustFind, readFailure, type RepoRef, type ResourceReader } from "../context.js";
import { type CanonicalEnvironment, type ReadEnvironment, reviewersOf } from "./canonical.js";
import { environmentsPath, listEnvironments, liveEnvironment } from "./plan.js";
import type { EnvironmentSettings, Environments } from "./settings.js";

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

/** Every environment of the repository as it is live. */
export async function exportEnvironments(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<Environments | undefined> {
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
}
