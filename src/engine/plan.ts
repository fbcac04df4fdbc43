import type { DesiredState } from "../config/model.js";
import { type Change, makePlan, type Plan, RESOURCE_KINDS } from "../core/plan.js";
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
}

function readerFor(readers: ReadonlyMap<string, ResourceReader>, target: string): ResourceReader {
  const reader = readers.get(target);
  if (!reader) throw new Error(`target '${target}' has no connection`);
  return reader;
}

const kindOrder = new Map(RESOURCE_KINDS.map((kind, index) => [kind, index]));

/**
 * Reads live state for everything the desired state names and returns the plan. All reads are
 * issued at once; the client's concurrency limit and rate pacing decide how fast they go.
 */
export async function buildPlan({ state, readers, now }: PlanInput): Promise<Plan> {
  const expansion = await expandRepositories(state.repositories, readers);
  const work: Array<Promise<Change | Change[]>> = [];
  for (const { entry, error } of expansion.errors) {
    const selector = entry.selector;
    const scope = `${selector.owner}/${selector.kind === "glob" ? selector.pattern : selector.repo}`;
    work.push(
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
      work.push(planBranchProtection({ reader, repo: ref, branch, desired }));
    }
    if (repo.webhooks) work.push(planWebhooks({ reader, repo: ref, ...repo.webhooks }));
    if (repo.invitations) work.push(auditInvitations(reader, ref, repo.invitations, now));
  }
  for (const project of state.projects) {
    work.push(planBoards(readerFor(readers, project.target), project));
  }
  for (const group of state.groups) {
    work.push(planEpicLinks(readerFor(readers, group.target), group));
  }
  for (const gists of state.gists) {
    work.push(auditGists(readerFor(readers, gists.target), gists));
  }
  const migrations = await Promise.all(
    state.migrations.map((audit) => auditMigration(readerFor(readers, audit.target), audit)),
  );
  const changes = (await Promise.all(work)).flat();
  changes.push(...migrations.map((result) => result.change));
  holdLockedRepositories(changes, migrations);
  // Stable order: by kind (protections, hooks, clean-ups, audits), then as the config listed them.
  const ordered = changes
    .map((change, index) => ({ change, index }))
    .sort(
      (a, b) =>
        (kindOrder.get(a.change.kind) ?? 0) - (kindOrder.get(b.change.kind) ?? 0) ||
        a.index - b.index,
    )
    .map(({ change }) => change);
  return makePlan(ordered);
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
