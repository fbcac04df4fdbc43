import type { DesiredState } from "../config/model.js";
import { type Change, makePlan, orderChanges, type Plan } from "../core/plan.js";
import { planBoards } from "../resources/board.js";
import { planBranchProtection } from "../resources/branch-protection.js";
import type { ResourceReader } from "../resources/context.js";
import { planEpicLinks } from "../resources/epic-link.js";
import { auditGists } from "../resources/gist.js";
import { auditInvitations } from "../resources/invitation.js";
import { auditMigration, locksOf } from "../resources/migration.js";
import { planWebhooks } from "../resources/webhook.js";
import { expandRepositories } from "./expand.js";

export interface PlanInput {
  state: DesiredState;
  /** One reader per target name. */
  readers: ReadonlyMap<string, ResourceReader>;
  /** Wall-clock time in ms, for audits of ages. */
  now: number;
  /** Send managed webhook secrets and authorization headers again (they cannot be compared). */
  rotateSecrets?: boolean;
}

function readerFor(readers: ReadonlyMap<string, ResourceReader>, target: string): ResourceReader {
  const reader = readers.get(target);
  if (!reader) throw new Error(`target '${target}' has no connection`);
  return reader;
}

/**
 * How many resources are read at once. The client's concurrency limit decides how many requests are
 * in flight; this only bounds how many are queued behind it. Starting every read at once queued
 * ~5 KB per request (30,000 requests at 10,000 repositories: 150 MB live before the first answer).
 */
const PLANNING_WINDOW = 512;

/** Runs `tasks` with at most `width` unfinished at a time; results keep the tasks' order. */
async function runWindowed<T>(tasks: ReadonlyArray<() => Promise<T>>, width: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < tasks.length) {
      const index = next++;
      try {
        results[index] = await tasks[index]!();
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, lane));
  return results;
}

/**
 * Reads live state for everything the desired state names and returns the plan. Reads are issued
 * a window at a time; the client's concurrency limit and rate pacing decide how fast they go.
 */
export async function buildPlan({
  state,
  readers,
  now,
  rotateSecrets = false,
}: PlanInput): Promise<Plan> {
  const expansion = await expandRepositories(state.repositories, readers);
  const work: Array<() => Promise<Change | Change[]>> = [];
  for (const { entry, error } of expansion.errors) {
    const selector = entry.selector;
    const scope = `${selector.owner}/${selector.kind === "glob" ? selector.pattern : selector.repo}`;
    work.push(() =>
      Promise.resolve({
        address: `${entry.target}/${scope}/branch_protection/*`,
        kind: "branch_protection",
        action: "no-op",
        target: entry.target,
        scope,
        name: "*",
        diff: [],
        requests: [],
        error,
      }),
    );
  }
  for (const repo of expansion.repos) {
    const reader = readerFor(readers, repo.target);
    const ref = { owner: repo.owner, name: repo.name };
    for (const [branch, desired] of repo.branchProtection) {
      work.push(() => planBranchProtection({ reader, repo: ref, branch, desired }));
    }
    const { webhooks, invitations } = repo;
    if (webhooks) {
      work.push(() => planWebhooks({ reader, repo: ref, ...webhooks, rotateSecrets }));
    }
    if (invitations) work.push(() => auditInvitations(reader, ref, invitations, now));
  }
  for (const project of state.projects) {
    const reader = readerFor(readers, project.target);
    work.push(() => planBoards(reader, project));
  }
  for (const group of state.groups) {
    const reader = readerFor(readers, group.target);
    work.push(() => planEpicLinks(reader, group));
  }
  for (const gists of state.gists) {
    const reader = readerFor(readers, gists.target);
    work.push(() => auditGists(reader, gists));
  }
  const migrations = await Promise.all(
    state.migrations.map((audit) => auditMigration(readerFor(readers, audit.target), audit)),
  );
  const changes = (await runWindowed(work, PLANNING_WINDOW)).flat();
  changes.push(...migrations.map((result) => result.change));
  holdLockedRepositories(changes, migrations);
  return makePlan(orderChanges(changes));
}

function holdLockedRepositories(
  changes: Change[],
  migrations: ReadonlyArray<Awaited<ReturnType<typeof auditMigration>>>,
): void {
  const locked = new Map<string, string>();
  for (const { change, live } of migrations) {
    for (const repo of locksOf(live)) {
      locked.set(
        repo,
        `locked by migration ${change.name} (${live?.state}) with lock_repositories`,
      );
    }
  }
  if (locked.size === 0) return;
  for (const change of changes) {
    const reason = locked.get(change.scope.toLowerCase());
    if (reason && change.requests.length > 0) change.held = `${change.scope} is ${reason}`;
  }
}
