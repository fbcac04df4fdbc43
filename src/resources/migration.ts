import * as z from "zod";
import type { MigrationAudit } from "../config/model.js";
import type { Change } from "../core/plan.js";
import { changeError, newChange, type ResourceReader } from "./context.js";
import { principalSet } from "./principals.js";

/**
 * Audit of a migration's state and repositories. A migration that locks its repositories and is
 * still running also holds back changes to them (see `locksOf`).
 */
const readRepository = z.looseObject({ full_name: z.string().optional() });
const readMigration = z.looseObject({
  id: z.number().int(),
  state: z.string().optional(),
  lock_repositories: z.boolean().optional(),
  repositories: z.array(readRepository).optional(),
});

export interface MigrationLive {
  state: string;
  lockRepositories: boolean;
  repositories: string[];
}

export interface MigrationAuditResult {
  change: Change;
  live?: MigrationLive;
}

export function migrationFindings(audit: MigrationAudit, live: MigrationLive): string[] {
  const findings: string[] = [];
  if (audit.states && !audit.states.includes(live.state as never)) {
    findings.push(`state is ${live.state}, expected ${audit.states.join(" or ")}`);
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

export async function auditMigration(
  reader: ResourceReader,
  audit: MigrationAudit,
): Promise<MigrationAuditResult> {
  const scope = "org" in audit.owner ? audit.owner.org : "user";
  const change = newChange(reader.target, scope, "migration", String(audit.id));
  const path =
    "org" in audit.owner
      ? `/orgs/${encodeURIComponent(audit.owner.org)}/migrations/${audit.id}`
      : `/user/migrations/${audit.id}`;
  const read = await reader.getOrAbsent(path, { name: "a Migration", schema: readMigration });
  if (read.kind === "error") return { change: { ...change, error: read.error } };
  if (read.kind === "absent") {
    return {
      change: {
        ...change,
        error: changeError(`migration ${audit.id} was not found`, "GET", path, 404),
      },
    };
  }
  let repositories = read.data.repositories;
  if ("user" in audit.owner) {
    // The user migration's own record may omit repositories; the spec lists them separately.
    const listed = await reader.list(`${path}/repositories`, undefined, {
      name: "repositories",
      schema: readRepository,
    });
    if (listed.kind === "error") return { change: { ...change, error: listed.error } };
    if (listed.kind === "found") repositories = listed.data;
  }
  const live: MigrationLive = {
    state: read.data.state ?? "unknown",
    lockRepositories: read.data.lock_repositories === true,
    repositories: principalSet(
      (repositories ?? []).map((repo) => repo.full_name ?? "").filter(Boolean),
    ),
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
