import * as z from "zod";
import { fail, login, SEEDED_AT, type SeedPath, timestamp } from "../../core/seed.js";
import { fillStore, values } from "../actions/seed.js";
import { storeOf } from "../actions/records.js";
import { githubArea } from "../area.js";
import { HttpError } from "../http.js";
import { teamsOf } from "../team/records.js";
import { environmentPermissions } from "./app-permissions.js";
import { environmentAfter, environmentNameProblem, storeEnvironment } from "./model.js";
import { environmentIds, environmentsOf } from "./records.js";
import { environmentRoutes } from "./routes.js";

/** A deployment environment, checked like a PUT of it; reviewers by login and team slug. */
const environment = z.strictObject({
  name: z.string().min(1),
  wait_timer: z.number().int().default(0),
  prevent_self_review: z.boolean().default(false),
  reviewers: z
    .strictObject({
      users: z.array(login).default([]),
      teams: z.array(z.string()).default([]),
    })
    .default({ users: [], teams: [] }),
  /** null: every branch; protected branches only; or custom branch and tag name patterns. */
  deployment_branch_policy: z
    .union([
      z.null(),
      z.strictObject({ protected_branches: z.literal(true) }),
      z.strictObject({
        custom: z.array(
          z.strictObject({
            name: z.string().min(1),
            type: z.enum(["branch", "tag"]).default("branch"),
          }),
        ),
      }),
    ])
    .default(null),
  created_at: timestamp.default(SEEDED_AT),
  /** Its variables and secrets (an environment has no Dependabot secrets): the actions area's. */
  variables: values,
  secrets: values,
});

/** The 422 a seeded value would have been answered with, as the seed's problem. */
function refusedAs(path: SeedPath, run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const body = error.reply.body as { message?: string } | undefined;
    fail(path, body?.message ?? `refused with ${error.reply.status}`);
  }
}

/** A repository's deployment environments and their protection rules (the `environment` kind). */
export const environments = githubArea({
  name: "environments",
  seed: { repositories: { environments: z.array(environment).default([]) } },
  demo: {
    repositories: [
      {
        full_name: "acme/api",
        environments: [
          { name: "staging", deployment_branch_policy: { protected_branches: true } },
          {
            name: "production",
            wait_timer: 30,
            prevent_self_review: true,
            reviewers: { users: ["octo-admin"], teams: ["release-managers"] },
            deployment_branch_policy: {
              custom: [
                { name: "main", type: "branch" },
                { name: "v*", type: "tag" },
              ],
            },
          },
        ],
      },
    ],
  },
  eachRepository(world, repo, entry, at) {
    entry.environments.forEach((env, index) => {
      const where = [...at, "environments", index];
      if (environmentsOf(repo).has(env.name.toLowerCase())) {
        fail(
          [...where, "name"],
          `environment '${env.name}' is defined twice (names are not case-sensitive)`,
        );
      }
      const users = env.reviewers.users.map((name, user) => {
        const found = world.account(name);
        if (found?.type !== "User")
          fail([...where, "reviewers", "users", user], `unknown user '${name}'`);
        return { type: "User" as const, id: found.id };
      });
      const teams = env.reviewers.teams.map((slug, team) => {
        const found = repo.org === null ? undefined : teamsOf(repo.org).get(slug.toLowerCase());
        if (found === undefined)
          fail(
            [...where, "reviewers", "teams", team],
            `unknown team '${slug}' of ${repo.owner.login}`,
          );
        return { type: "Team" as const, id: found.id };
      });
      const policy = env.deployment_branch_policy;
      refusedAs(where, () => {
        const problem = environmentNameProblem(env.name);
        if (problem) throw problem;
        const fields = environmentAfter(world, repo, undefined, {
          wait_timer: env.wait_timer,
          prevent_self_review: env.prevent_self_review,
          reviewers: [...users, ...teams],
          deployment_branch_policy:
            policy === null
              ? null
              : {
                  protected_branches: "protected_branches" in policy,
                  custom_branch_policies: "custom" in policy,
                },
        });
        const stored = storeEnvironment(world, repo, env.name, fields, Date.parse(env.created_at));
        for (const pattern of policy !== null && "custom" in policy ? policy.custom : []) {
          const id = environmentIds(world).branchPolicy++;
          stored.policies.set(id, { id, ...pattern });
        }
        fillStore(storeOf(stored), env, env.created_at);
      });
    });
  },
  routes: environmentRoutes,
  permissions: environmentPermissions,
});
