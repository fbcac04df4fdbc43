import {
  type Change,
  type ChangeError,
  type DiffEntry,
  newChange,
  type PlannedRequest,
} from "../../core/plan.js";
import { fromRead, protectionPath, readProtection } from "../branch-protection/index.js";
import {
  changeError,
  mustFind,
  type ReadResult,
  readFailure,
  repoPath,
  type RepoRef,
  type ResourceReader,
} from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { KindModule } from "../kind.js";
import { type CoverageExpectation, notEquivalent, requirementsOf, uncovered } from "./classic.js";
import {
  type GhRuleset,
  listedRuleset,
  normalizeRuleset,
  readRuleset,
  referencedIds,
  requestBody,
  shown,
} from "./canonical.js";
import { type Directory, directoryOf, Unresolved } from "./directory.js";
import { rulesetGraphql } from "./graphql.js";
import { desiredRuleset, rulesetSettings } from "./mapping.js";
import {
  type Level,
  repositoryRulesetRules,
  type RulesetSettings,
  type Rulesets,
  rulesetsSchema,
} from "./settings.js";

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

const SHAPE = { name: "a Repository ruleset", schema: readRuleset };

interface Where {
  reader: ResourceReader;
  level: Level;
  /** `/repos/{owner}/{repo}/rulesets` or `/orgs/{org}/rulesets`. */
  base: string;
  scope: string;
  dir: Directory;
}

function refused(path: string, problem: string): ChangeError {
  return changeError(
    `answered 200 with a body that is not ${SHAPE.name}: ${problem}`,
    "GET",
    path,
    200,
  );
}

/** The live ruleset, normalized; an error when it cannot be compared (or written without loss). */
async function readLive(
  where: Where,
  id: number,
): Promise<{ ruleset: GhRuleset } | { error: ChangeError }> {
  const path = `${where.base}/${id}`;
  const read = await where.reader.getOrAbsent(path, SHAPE);
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
async function listLive(where: Where): Promise<ReadResult<Map<string, number>>> {
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
  const read = await reader.getOrAbsent(path, {
    name: "a Protected Branch",
    schema: readProtection,
  });
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

async function planRulesets(where: Where, rulesets: Rulesets, repo?: RepoRef): Promise<Change[]> {
  const listed = await listLive(where);
  if (listed.kind !== "found") {
    const error =
      listed.kind === "error"
        ? listed.error
        : changeError(
            `${where.scope} was not found (or the token cannot see its rulesets)`,
            "GET",
            where.base,
            404,
          );
    return Object.keys(rulesets).map((name) => ({
      ...newChange(where.reader.target, where.scope, "ruleset", name),
      error,
    }));
  }
  return Promise.all(
    Object.entries(rulesets).map(([name, desired]) =>
      planRuleset({
        where,
        name,
        desired,
        liveId: listed.data.get(name),
        ...(repo ? { repo } : {}),
      }),
    ),
  );
}

/** Every ruleset of its own, as configuration that plans as no change. */
async function exportRulesets(where: Where): Promise<Rulesets | undefined> {
  const names = mustFind(await listLive(where), where.base);
  const rulesets: Rulesets = {};
  for (const [name, id] of [...names].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const read = await readLive(where, id);
    if ("error" in read) throw readFailure(read.error);
    await where.dir.learn(referencedIds(read.ruleset), true);
    rulesets[name] = rulesetSettings(where.dir, read.ruleset, where.level);
  }
  return Object.keys(rulesets).length > 0 ? rulesets : undefined;
}

function repositoryWhere(reader: ResourceReader, repo: RepoRef): Where {
  return {
    reader,
    level: "repository",
    base: `${repoPath(repo)}/rulesets`,
    scope: `${repo.owner}/${repo.name}`,
    dir: directoryOf(reader, repo.owner),
  };
}

function organizationWhere(reader: ResourceReader, org: string): Where {
  return {
    reader,
    level: "organization",
    base: `/orgs/${encodeURIComponent(org)}/rulesets`,
    scope: org,
    dir: directoryOf(reader, org),
  };
}

const noNamer = () => undefined;

/**
 * A ruleset write is compared with the ruleset the service answered (ids, not names); the GET of a
 * branch's rules with what the change expects of it.
 */
export function verifyWritten(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method === "GET") {
    const expected = request.expect as CoverageExpectation;
    if (!Array.isArray(response)) {
      return [
        {
          path: `rules of branch ${expected.branch}`,
          before: "a list of rules",
          after: "something else",
        },
      ];
    }
    return uncovered(response as Array<{ type?: unknown }>, expected.rules).map((gap) => ({
      ...gap,
      path: `rules of branch ${expected.branch}: ${gap.path}`,
    }));
  }
  const sent = normalizeRuleset(request.body, true);
  const answered = normalizeRuleset(response, true);
  if (sent.kind !== "ok" || answered.kind !== "ok") {
    return [{ path: "(response)", before: SHAPE.name, after: "something else" }];
  }
  const diff = diffValues(shown(sent.ruleset, noNamer), shown(answered.ruleset, noNamer));
  if (sent.ruleset.name !== answered.ruleset.name) {
    diff.push({ path: "name", before: sent.ruleset.name, after: answered.ruleset.name });
  }
  return diff;
}

function printRulesets(rulesets: Rulesets | undefined, prefix: readonly string[]) {
  return Object.keys(rulesets ?? {}).map((name) => ({
    kind: "ruleset",
    name,
    path: [...prefix, name],
  }));
}

export const ruleset: KindModule = {
  name: "ruleset",
  repository: {
    setting: {
      key: "rulesets",
      schema: rulesetsSchema("repository"),
      rules: repositoryRulesetRules,
      defines: (value) =>
        Object.keys(value as Rulesets).map((name) => ({
          id: `ruleset ${name}`,
          path: [name],
          what: `the ruleset "${name}"`,
        })),
      print: (value) => printRulesets(value as Rulesets, []),
    },
    plan: ({ reader, repo, value }) =>
      planRulesets(repositoryWhere(reader, repo), value as Rulesets, repo),
    export: (reader, repo) => exportRulesets(repositoryWhere(reader, repo)),
    graphql: rulesetGraphql,
  },
  organization: {
    setting: {
      key: "rulesets",
      schema: rulesetsSchema("organization"),
      defines: (value) =>
        Object.keys(value as Rulesets).map((name) => ({
          id: `ruleset ${name}`,
          path: [name],
          what: `the ruleset "${name}"`,
        })),
      print: (value) => printRulesets(value as Rulesets, []),
    },
    plan: ({ reader, org, value }) =>
      planRulesets(organizationWhere(reader, org), value as Rulesets),
    export: (reader, org) => exportRulesets(organizationWhere(reader, org)),
  },
  verify: verifyWritten,
};
