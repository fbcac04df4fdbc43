import { type Change, type ChangeError, newChange } from "../../core/plan.js";
import { changeError, type ResourceReader } from "../context.js";
import { principalSet } from "../principals.js";
import { needsUser } from "../user-reads.js";
import { type MigrationLive, readMigration, readRepository } from "./canonical.js";
import { type MigrationAudit, scopeOf } from "./settings.js";

/**
 * Audit of a migration's state and repositories. A migration that locks its repositories and is
 * still running also holds back changes to them (see `locksOf`).
 */
export interface MigrationAuditResult {
  change: Change;
  live?: MigrationLive;
}

export function migrationFindings(audit: MigrationAudit, live: MigrationLive): string[] {
  const findings: string[] = [];
  const states = audit.state === undefined ? undefined : [audit.state].flat();
  if (states && !states.includes(live.state as never)) {
    findings.push(`state is ${live.state}, expected ${states.join(" or ")}`);
  }
  if (audit.repositories) {
    const expected = principalSet(audit.repositories);
    const missing = expected.filter((name) => !live.repositories.includes(name));
    const extra = live.repositories.filter((name) => !expected.includes(name));
    if (missing.length > 0)
      findings.push(`repositories missing from the migration: ${missing.join(", ")}`);
    if (extra.length > 0)
      findings.push(`unexpected repositories in the migration: ${extra.join(", ")}`);
  }
  return findings;
}

/**
 * What a refused read of the migration needs. GitHub opens neither family to Apps
 * (`enabledForGitHubApps: false` in @octokit/openapi for every migrations operation).
 */
function needed(audit: MigrationAudit): string {
  return audit.org !== undefined
    ? `an organization migration is read with the token of an owner of ${audit.org}, not an App installation's`
    : "a user migration is read with its user's token, not an App installation's (nor a workflow's GITHUB_TOKEN)";
}

export async function auditMigration(
  reader: ResourceReader,
  audit: MigrationAudit,
): Promise<MigrationAuditResult> {
  const scope = scopeOf(audit);
  const change = newChange(reader.target, scope, "migration", String(audit.id));
  const failed = (error: ChangeError): MigrationAuditResult => ({
    change: { ...change, error: needsUser(error, needed(audit)) },
  });
  const path =
    audit.org !== undefined
      ? `/orgs/${encodeURIComponent(audit.org)}/migrations/${audit.id}`
      : `/user/migrations/${audit.id}`;
  const read = await reader.getOrAbsent(path, { name: "a Migration", schema: readMigration });
  if (read.kind === "error") return failed(read.error);
  if (read.kind === "absent") {
    const whose =
      audit.org !== undefined
        ? `of organization ${audit.org} was not found (or the token's user is not an owner of ${audit.org})`
        : "was not found among the token's user's migrations";
    return failed(changeError(`migration ${audit.id} ${whose}`, "GET", path, 404));
  }
  let repositories = read.data.repositories;
  // A record's `repositories` are "only returned for export migrations" (GitHub's Migration schema),
  // so a record without them is not a migration of nothing: the repositories are then read from the
  // migration's own list (migrations/list-repos-for-org). The user migration's record is not the
  // spec's operation, its list is (spec endpoint 6), so that list is always read.
  if (repositories === undefined || audit.user === true) {
    const listed = await reader.list(`${path}/repositories`, undefined, {
      name: "repositories",
      schema: readRepository,
    });
    if (listed.kind === "error") return failed(listed.error);
    if (listed.kind === "absent") {
      return failed(changeError(listed.detail, "GET", `${path}/repositories`, 404));
    }
    repositories = listed.data;
  }
  const live: MigrationLive = {
    state: read.data.state,
    lockRepositories: read.data.lock_repositories,
    repositories: principalSet(repositories.map((repo) => repo.full_name)),
  };
  const findings = migrationFindings(audit, live);
  if (findings.length === 0) return { change, live };
  return {
    change: {
      ...change,
      action: "report",
      findings: [
        `migration ${audit.id} (${scope}): state ${live.state}, ${live.repositories.length} repositories`,
        ...findings,
      ],
    },
    live,
  };
}

/** Repositories locked by a migration that is still running: changes to them are held back. */
export function locksOf(live: MigrationLive | undefined): string[] {
  if (!live || !live.lockRepositories) return [];
  return live.state === "pending" || live.state === "exporting" ? live.repositories : [];
}
