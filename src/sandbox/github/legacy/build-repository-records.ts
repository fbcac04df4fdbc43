import { HttpError } from "../http.js";
import type { Repository, GithubWorld } from "../world/records.js";
import { autolinkProblems, autolinkWithPrefix } from "../autolinks.js";
import {
  environmentAfter,
  environmentNameProblem,
  storeEnvironment,
} from "../environments/model.js";
import { addLabel, DEFAULT_LABELS, findLabel, labelsNamed } from "../labels.js";
import type { RepositorySeed } from "./schema.js";

/**
 * The labels, issues, environments and autolinks of a seeded repository, each checked as the
 * request that would make it is checked, so a seed holds only what requests could have made.
 */

type Fail = (path: (string | number)[], message: string) => never;

/** The 422 a seeded value would have been answered with, as the seed's problem. */
function refusedAs(fail: Fail, path: (string | number)[], run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const body = error.reply.body as { message?: string } | undefined;
    fail(path, body?.message ?? `refused with ${error.reply.status}`);
  }
}

function buildLabels(
  world: GithubWorld,
  repo: Repository,
  seed: RepositorySeed,
  at: (string | number)[],
  fail: Fail,
) {
  const labels = seed.labels ?? DEFAULT_LABELS.map((label) => ({ ...label, default: true }));
  labels.forEach((label, index) => {
    if (findLabel(repo, label.name) !== undefined) {
      fail(
        [...at, "labels", index, "name"],
        `label '${label.name}' is defined twice (names are not case-sensitive)`,
      );
    }
    addLabel(world, repo, label);
  });
}

function buildIssues(
  world: GithubWorld,
  repo: Repository,
  seed: RepositorySeed,
  at: (string | number)[],
  fail: Fail,
) {
  const list = world.issues.get(repo.id) ?? [];
  world.issues.set(repo.id, list);
  seed.issues.forEach((issue, index) => {
    const user = world.account(issue.author);
    if (user?.type !== "User")
      fail([...at, "issues", index, "author"], `unknown user '${issue.author}'`);
    list.push({
      id: world.nextId.issue++,
      number: list.length + 1,
      repo,
      title: issue.title,
      body: null,
      state: "open",
      state_reason: null,
      user,
      labels: labelsNamed(world, repo, issue.labels),
      comments: [],
      created_at: repo.created_at,
      updated_at: repo.created_at,
      closed_at: null,
      closed_by: null,
    });
  });
}

function buildEnvironments(
  world: GithubWorld,
  repo: Repository,
  seed: RepositorySeed,
  at: (string | number)[],
  fail: Fail,
) {
  seed.environments.forEach((env, index) => {
    const where = [...at, "environments", index];
    if (repo.environments.has(env.name.toLowerCase())) {
      fail(
        [...where, "name"],
        `environment '${env.name}' is defined twice (names are not case-sensitive)`,
      );
    }
    const users = env.reviewers.users.map((login, user) => {
      const found = world.account(login);
      if (found?.type !== "User")
        fail([...where, "reviewers", "users", user], `unknown user '${login}'`);
      return { type: "User" as const, id: found.id };
    });
    const teams = env.reviewers.teams.map((slug, team) => {
      const found = repo.org?.teams.get(slug.toLowerCase());
      if (found === undefined)
        fail(
          [...where, "reviewers", "teams", team],
          `unknown team '${slug}' of ${repo.owner.login}`,
        );
      return { type: "Team" as const, id: found.id };
    });
    const policy = env.deployment_branch_policy;
    refusedAs(fail, where, () => {
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
        const id = world.nextId.branchPolicy++;
        stored.policies.set(id, { id, ...pattern });
      }
    });
  });
}

function buildAutolinks(
  repo: Repository,
  seed: RepositorySeed,
  at: (string | number)[],
  ids: Set<number>,
  fail: Fail,
) {
  seed.autolinks.forEach((autolink, index) => {
    const where = [...at, "autolinks", index];
    if (ids.has(autolink.id)) fail([...where, "id"], `autolink id ${autolink.id} is used twice`);
    ids.add(autolink.id);
    const problems = autolinkProblems(autolink);
    if (problems.length > 0)
      fail(where, problems.map((problem) => problem.message ?? problem.code).join("; "));
    if (autolinkWithPrefix(repo, autolink.key_prefix) !== undefined) {
      fail([...where, "key_prefix"], `key prefix '${autolink.key_prefix}' is used twice`);
    }
    repo.autolinks.set(autolink.id, { ...autolink, updated_at: repo.created_at });
  });
}

/** Adds the records of every seeded repository; autolink ids are unique across the world. */
export function buildRepositoryRecords(
  world: GithubWorld,
  seeds: readonly RepositorySeed[],
  fail: Fail,
): void {
  const autolinkIds = new Set<number>();
  seeds.forEach((seed, index) => {
    const [owner = "", name = ""] = seed.full_name.split("/");
    const repo = world.repository(owner, name);
    if (repo === undefined) return;
    const at = ["repositories", index];
    buildLabels(world, repo, seed, at, fail);
    buildIssues(world, repo, seed, at, fail);
    buildEnvironments(world, repo, seed, at, fail);
    buildAutolinks(repo, seed, at, autolinkIds, fail);
  });
  let next = 1;
  for (const id of autolinkIds) next = Math.max(next, id + 1);
  world.nextId.autolink = next;
}
