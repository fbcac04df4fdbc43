import {
  type Change,
  type ChangeError,
  type DiffEntry,
  newChange,
  type PlannedRequest,
} from "../../core/plan.js";
import { fromRead, PROTECTION_SHAPE, protectionPath } from "../classic-protection.js";
import { planCollection } from "../collection.js";
import {
  changeError,
  type ReadResult,
  repoPath,
  type RepoRef,
  type ResourceReader,
} from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { type CoverageExpectation, notEquivalent, requirementsOf, uncovered } from "./classic.js";
import {
  type GhRuleset,
  listedRuleset,
  normalizeRuleset,
  RULESET_SHAPE,
  referencedIds,
  requestBody,
  shown,
} from "./canonical.js";
import { type Directory, directoryOf, Unresolved } from "./directory.js";
import { desiredRuleset } from "./mapping.js";
import type { Level, RulesetSettings, Rulesets } from "./settings.js";

/**
 * Rulesets of repositories (`rulesets` in repository settings) and of organizations (the
 * `organizations` section), keyed by name: the id is the service's. A ruleset that is written is
 * managed whole (what is not written takes its default); `null` deletes it; rulesets not named are
 * left alone. Bypass actors and the actors inside rules are written by name and resolved to ids when
 * planning; a name that does not exist is an error for that ruleset.
 *
 * A repository ruleset may replace branches' classic protection (`replaces_protection`). Its change
 * then carries, after the ruleset's own write, a GET of the branch's rules that must show rules
 * covering the classic protection, and only then the DELETE of that protection: apply sends a
 * change's requests in order and stops at the first that fails, so a branch is never left with
 * neither (docs/kinds.md, "Moving from classic protection to rulesets").
 */

export interface Where {
  reader: ResourceReader;
  level: Level;
  /** `/repos/{owner}/{repo}/rulesets` or `/orgs/{org}/rulesets`. */
  base: string;
  scope: string;
  dir: Directory;
}

function refused(path: string, problem: string): ChangeError {
  return changeError(
    `answered 200 with a body that is not ${RULESET_SHAPE.name}: ${problem}`,
    "GET",
    path,
    200,
  );
}

/** The live ruleset, normalized; an error when it cannot be compared (or written without loss). */
export async function readLive(
  where: Where,
  id: number,
): Promise<{ ruleset: GhRuleset } | { error: ChangeError }> {
  const path = `${where.base}/${id}`;
  const read = await where.reader.getOrAbsent(path, RULESET_SHAPE);
  if (read.kind === "error") return { error: read.error };
  if (read.kind === "absent") {
    return {
      error: changeError(`ruleset ${id} disappeared while it was planned`, "GET", path, 404),
    };
  }
  const normalized = normalizeRuleset(read.data, false);
  if (normalized.kind === "malformed") return { error: refused(path, normalized.problem) };
  if (normalized.kind === "unmanaged") {
    return {
      error: changeError(
        `ruleset "${read.data.name}" has rules forgeplan does not manage (${normalized.types.join(", ")}); writing it would remove them, so it is left alone`,
        "GET",
        path,
        200,
      ),
    };
  }
  if (normalized.kind === "unknown") {
    return {
      error: changeError(
        `ruleset "${read.data.name}" has settings forgeplan does not manage (${normalized.settings.join(", ")}); writing it would reset them, so it is left alone`,
        "GET",
        path,
        200,
      ),
    };
  }
  return normalized;
}

/** The rulesets of the repository or organization itself, by name (inherited ones are not its own). */
export async function listLive(where: Where): Promise<ReadResult<Map<string, number>>> {
  const query = where.level === "repository" ? { includes_parents: "false" } : undefined;
  const own = where.level === "repository" ? "Repository" : "Organization";
  const listed = await where.reader.list(where.base, query, {
    name: "rulesets",
    schema: listedRuleset,
  });
  if (listed.kind !== "found") return listed;
  const byName = new Map<string, number>();
  for (const item of listed.data) {
    if (item.source_type === undefined || item.source_type === own) byName.set(item.name, item.id);
  }
  return { kind: "found", data: byName };
}

interface ClassicReplacement {
  branch: string;
  requests: PlannedRequest[];
  diff: DiffEntry[];
  notes: string[];
  live: unknown;
}

/**
 * What replacing one branch's classic protection adds to the ruleset's change: nothing when the
 * branch has none; while the ruleset only evaluates, a note; else the covering check and the DELETE.
 */
async function replaceClassic(
  reader: ResourceReader,
  repo: RepoRef,
  branch: string,
  desired: GhRuleset,
): Promise<ClassicReplacement | { error: ChangeError } | undefined> {
  const path = protectionPath(repo, branch);
  const read = await reader.getOrAbsent(path, PROTECTION_SHAPE);
  if (read.kind === "error") return { error: read.error };
  if (read.kind === "absent") return undefined;
  const protection = fromRead(read.data);
  const requirements = requirementsOf(protection, read.data.required_signatures?.enabled === true);
  const notes = notEquivalent(protection).map((note) => `classic protection of ${branch}: ${note}`);
  const base = { branch, live: protection };
  if (desired.enforcement !== "active") {
    return {
      ...base,
      requests: [],
      diff: [],
      notes: [
        ...notes,
        `the classic protection of ${branch} is kept while the ruleset's enforcement is ${desired.enforcement}: the service applies no rule of such a ruleset; set enforcement: active to replace it`,
      ],
    };
  }
  const own = Object.entries(desired.rules).map(([type, parameters]) => ({ type, parameters }));
  const gaps = uncovered(own, requirements);
  if (gaps.length > 0) {
    notes.push(
      `this ruleset alone does not cover the classic protection of ${branch} (${gaps.map((gap) => gap.path).join(", ")}): it is deleted only if the branch's rules from all rulesets cover it`,
    );
  }
  const expect: CoverageExpectation = { branch, rules: requirements };
  const rulesPath = `${repoPath(repo)}/rules/branches/${encodeURIComponent(branch)}?per_page=100`;
  return {
    ...base,
    requests: [
      { method: "GET", path: rulesPath, expect },
      { method: "DELETE", path },
    ],
    diff: [
      {
        path: `replaces_protection.${branch}`,
        before: "classic protection",
        after: "deleted once the branch's rules cover it",
      },
    ],
    notes,
  };
}

/** The replacements of every branch the ruleset replaces, or the first error reading them. */
async function replaceAll(
  reader: ResourceReader,
  repo: RepoRef,
  branches: readonly string[],
  desired: GhRuleset,
): Promise<ClassicReplacement[] | { error: ChangeError }> {
  const replacements: ClassicReplacement[] = [];
  for (const branch of branches) {
    const replacement = await replaceClassic(reader, repo, branch, desired);
    if (replacement === undefined) continue;
    if ("error" in replacement) return replacement;
    replacements.push(replacement);
  }
  return replacements;
}

interface RulesetPlanInput {
  where: Where;
  name: string;
  desired: RulesetSettings | null;
  liveId: number | undefined;
  repo?: RepoRef;
}

async function planRuleset({
  where,
  name,
  desired,
  liveId,
  repo,
}: RulesetPlanInput): Promise<Change> {
  const base = newChange(where.reader.target, where.scope, "ruleset", name);
  let live: GhRuleset | null = null;
  if (liveId !== undefined) {
    const read = await readLive(where, liveId);
    if ("error" in read) return { ...base, error: read.error };
    live = read.ruleset;
  }
  let target: GhRuleset | null = null;
  try {
    if (desired !== null) target = await desiredRuleset(where.dir, name, desired);
  } catch (error) {
    if (error instanceof Unresolved) return { ...base, error: error.error };
    throw error;
  }
  if (live) await where.dir.learn(referencedIds(live), false);
  const liveShown = live && shown(live, where.dir.namer);
  const path = liveId === undefined ? where.base : `${where.base}/${liveId}`;
  if (target === null) {
    if (liveShown === null) return { ...base, live_fingerprint: fingerprint(null) };
    return {
      ...base,
      action: "delete",
      diff: diffValues(liveShown, {}),
      requests: [{ method: "DELETE", path }],
      live_fingerprint: fingerprint(liveShown),
    };
  }
  const diff = diffValues(liveShown ?? {}, shown(target, where.dir.namer));
  const requests: PlannedRequest[] =
    diff.length === 0
      ? []
      : [{ method: live === null ? "POST" : "PUT", path, body: requestBody(target, where.level) }];
  const notes: string[] = [];
  const classic: Record<string, unknown> = {};
  const replacements =
    repo === undefined
      ? []
      : await replaceAll(where.reader, repo, desired?.replaces_protection ?? [], target);
  if ("error" in replacements) return { ...base, error: replacements.error };
  for (const replacement of replacements) {
    requests.push(...replacement.requests);
    diff.push(...replacement.diff);
    notes.push(...replacement.notes);
    classic[replacement.branch] = replacement.live;
  }
  const planned = {
    ...base,
    ...(notes.length > 0 ? { notes } : {}),
    live_fingerprint: fingerprint({ ruleset: liveShown, classic }),
  };
  if (requests.length === 0) return planned;
  return { ...planned, action: live === null ? "create" : "update", diff, requests };
}

/** The rulesets written, by name as written (the service's names are exact); others are left alone. */
export function planRulesets(where: Where, rulesets: Rulesets, repo?: RepoRef): Promise<Change[]> {
  return planCollection({
    reader: where.reader,
    scope: where.scope,
    kind: "ruleset",
    what: "the rulesets",
    mode: "additive",
    members: Object.entries(rulesets).map(([name, desired]) => ({ name, desired })),
    path: where.base,
    list: async () => {
      const listed = await listLive(where);
      if (listed.kind === "found") return { kind: "found", data: [...listed.data] };
      if (listed.kind === "error") return listed;
      return {
        kind: "error",
        error: changeError(
          `${where.scope} was not found (or the token cannot see its rulesets)`,
          "GET",
          where.base,
          404,
        ),
      };
    },
    nameOf: ([name]) => name,
    plan: ({ name, desired }, live) =>
      planRuleset({ where, name, desired, liveId: live?.[1], ...(repo ? { repo } : {}) }),
  });
}

export function repositoryWhere(reader: ResourceReader, repo: RepoRef): Where {
  return {
    reader,
    level: "repository",
    base: `${repoPath(repo)}/rulesets`,
    scope: `${repo.owner}/${repo.name}`,
    dir: directoryOf(reader, repo.owner),
  };
}

export function organizationWhere(reader: ResourceReader, org: string): Where {
  return {
    reader,
    level: "organization",
    base: `/orgs/${encodeURIComponent(org)}/rulesets`,
    scope: org,
    dir: directoryOf(reader, org),
  };
}
