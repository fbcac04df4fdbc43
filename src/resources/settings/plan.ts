import * as z from "zod";
import {
  type Change,
  type ChangeError,
  type DiffEntry,
  newChange,
  type PlannedRequest,
} from "../../core/plan.js";
import { changeError, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { Location } from "../kind.js";
import {
  type CanonicalSecurity,
  desiredFields,
  desiredSecurity,
  type FullRepository,
  fullRepository,
  liveFields,
  liveSecurity,
  liveVisibility,
  PATCH_FIELDS,
  SECURITY_FEATURES,
  topicSet,
} from "./canonical.js";
import { planCreate } from "./create.js";
import type { RepositorySettings } from "./settings.js";

/**
 * The changes of one repository's settings, each a resource of its own so a failed read, a gate or
 * an error holds back only what it is about:
 *
 * - `repository`: the fields of one `PATCH /repos/{owner}/{repo}` (and its creation);
 * - `visibility`: its own PATCH, applied only with --allow-visibility;
 * - `default_branch`: a switch to an existing branch (PATCH) or an explicit rename (POST …/rename);
 * - `topics` (PUT …/topics), `vulnerability_alerts`, `automated_security_fixes`,
 *   `private_vulnerability_reporting` (PUT or DELETE each);
 * - `archived` (PATCH; unarchived first, archived last) and `name` (the rename from a previous name,
 *   after every other change of the repository).
 *
 * Within the kind, a change that needs another is listed after it (apply sends the changes of a
 * repository in the order listed): alerts before security fixes when turning them on, fixes before
 * alerts when turning them off, visibility before private vulnerability reporting.
 */

export const KIND = "settings";

const noContent = { name: "an empty answer (204)", schema: z.undefined() };
const enabledAnswer = { name: "{enabled}", schema: z.looseObject({ enabled: z.boolean() }) };
const branchItem = { name: "branches", schema: z.looseObject({ name: z.string() }) };

type Part = Pick<Change, "action" | "diff" | "requests"> &
  Partial<Pick<Change, "notes" | "step" | "gate" | "live_fingerprint" | "error">>;

interface Context {
  reader: ResourceReader;
  /** Where the repository is now. */
  at: RepoRef;
  path: string;
  scope: string;
}

function part(ctx: Context, name: string, value: Part): Change {
  return { ...newChange(ctx.reader.target, ctx.scope, KIND, name), ...value };
}

function failed(ctx: Context, name: string, error: ChangeError): Change {
  return { ...newChange(ctx.reader.target, ctx.scope, KIND, name), error };
}

/** An update when the diff has entries, else a no-op; the live state fingerprinted either way. */
function updateOrNot(diff: DiffEntry[], requests: PlannedRequest[], live: unknown): Part {
  const changed = diff.length > 0 && requests.length > 0;
  return {
    action: changed ? "update" : "no-op",
    diff: changed ? diff : [],
    requests: changed ? requests : [],
    live_fingerprint: fingerprint(live),
  };
}

/** What GitHub's answer lacks of what the value manages: those fields cannot be compared. */
function unreported(ctx: Context, fields: readonly string[]): ChangeError {
  return changeError(
    `GET ${ctx.path} answered without ${fields.join(", ")} (${ctx.reader.credential} may not administer ${ctx.scope}), so ${fields.length === 1 ? "it" : "they"} cannot be compared`,
    "GET",
    ctx.path,
    200,
  );
}

/** The wire form of a field: GitHub's schema takes strings, so "none" is sent as "". */
function wire(field: string, value: unknown): unknown {
  return (field === "description" || field === "homepage") && value === null ? "" : value;
}

function securityBody(changed: CanonicalSecurity): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const feature of SECURITY_FEATURES) {
    const wanted = changed[feature];
    if (wanted !== undefined) body[feature] = { status: wanted };
  }
  if (changed.bypass_reviewers !== undefined) {
    body.secret_scanning_delegated_bypass_options = { reviewers: changed.bypass_reviewers };
  }
  return body;
}

/** The `repository` change: every PATCH field the value writes, compared with GitHub's answer. */
function planFields(
  ctx: Context,
  value: RepositorySettings,
  answer: FullRepository,
): Change | undefined {
  const desired = desiredFields(value);
  const security =
    value.security_and_analysis === undefined
      ? undefined
      : desiredSecurity(value.security_and_analysis);
  if (Object.keys(desired).length === 0 && security === undefined && value.create === undefined)
    return undefined;
  const live = liveFields(answer);
  const liveSecure = liveSecurity(answer);
  const missing = [
    ...Object.keys(desired).filter((field) => !(field in live)),
    ...Object.keys(security ?? {})
      .filter((feature) => !(feature in liveSecure))
      .map(
        (feature) =>
          `security_and_analysis.${feature === "bypass_reviewers" ? "secret_scanning_delegated_bypass_options" : feature}`,
      ),
  ];
  if (missing.length > 0) return failed(ctx, "repository", unreported(ctx, missing));
  const pick = <T extends object>(from: T, keys: readonly string[]) =>
    Object.fromEntries(Object.entries(from).filter(([key]) => keys.includes(key)));
  const before = {
    ...pick(live, Object.keys(desired)),
    ...(security === undefined
      ? {}
      : { security_and_analysis: pick(liveSecure, Object.keys(security)) }),
  };
  const after = {
    ...desired,
    ...(security === undefined ? {} : { security_and_analysis: security }),
  };
  const diff = diffValues(before, after);
  const body: Record<string, unknown> = {};
  for (const field of PATCH_FIELDS) {
    if (!(field in desired) || JSON.stringify(desired[field]) === JSON.stringify(live[field]))
      continue;
    body[field] = wire(field, desired[field]);
  }
  // GitHub takes a commit-message title and message together (settings.ts has the rule).
  for (const [title, message] of [
    ["squash_merge_commit_title", "squash_merge_commit_message"],
    ["merge_commit_title", "merge_commit_message"],
  ] as const) {
    if (body[title] !== undefined || body[message] !== undefined) {
      body[title] = desired[title];
      body[message] = desired[message];
    }
  }
  if (security !== undefined) {
    const changed: CanonicalSecurity = {};
    for (const feature of SECURITY_FEATURES) {
      if (security[feature] !== undefined && security[feature] !== liveSecure[feature])
        changed[feature] = security[feature];
    }
    if (
      security.bypass_reviewers !== undefined &&
      JSON.stringify(security.bypass_reviewers) !== JSON.stringify(liveSecure.bypass_reviewers)
    ) {
      changed.bypass_reviewers = security.bypass_reviewers;
    }
    if (Object.keys(changed).length > 0) body.security_and_analysis = securityBody(changed);
  }
  const requests: PlannedRequest[] =
    Object.keys(body).length === 0 ? [] : [{ method: "PATCH", path: ctx.path, body }];
  return part(ctx, "repository", updateOrNot(diff, requests, before));
}

/**
 * What GitHub's documentation says a change of visibility does ("Setting repository visibility",
 * "Consequences of changing a repository's visibility", docs.github.com).
 */
const VISIBILITY_CONSEQUENCES: Record<string, string> = {
  private:
    "GitHub: making a repository private permanently erases its stars and watchers, which affects repository rankings; its current forks remain public and are detached from it; code scanning becomes unavailable",
  public:
    "GitHub: making a repository public makes its code visible to everyone; anyone can fork it; all push rulesets are disabled; Actions history and logs become visible to everyone",
};

function planVisibility(ctx: Context, wanted: string, answer: FullRepository): Change {
  const live = liveVisibility(answer);
  const diff = diffValues({ visibility: live }, { visibility: wanted });
  const planned = updateOrNot(
    diff,
    [{ method: "PATCH", path: ctx.path, body: { visibility: wanted } }],
    { visibility: live },
  );
  if (planned.action === "no-op") return part(ctx, "visibility", planned);
  return part(ctx, "visibility", {
    ...planned,
    gate: "visibility",
    notes: [VISIBILITY_CONSEQUENCES[wanted]!],
  });
}

/** Branch names, for a switch or a rename of the default branch; the listing's error otherwise. */
async function branchesOf(ctx: Context): Promise<string[] | ChangeError> {
  const path = `${ctx.path}/branches`;
  const listed = await ctx.reader.list(path, undefined, branchItem);
  if (listed.kind === "found") return listed.data.map((branch) => branch.name);
  return listed.kind === "error"
    ? listed.error
    : changeError(`${ctx.scope} was not found`, "GET", path, 404);
}

function namedBranches(branches: readonly string[]): string {
  return branches.length === 0
    ? "it has no branch yet"
    : `its branches: ${[...branches].sort().join(", ")}`;
}

/**
 * `default_branch` switches to a branch that exists, never creating or renaming one
 * (safe-settings#336 and #677 renamed when a switch was meant; terraform-provider-github#765 failed
 * on a missing branch). `rename_default_branch` says the default branch is `to`: while it is still
 * `from`, it is renamed explicitly (both existing is an error, never a guess); done once it is `to`;
 * otherwise it switches to `to` when that branch exists, as `default_branch` would.
 */
async function planDefaultBranch(
  ctx: Context,
  value: RepositorySettings,
  answer: FullRepository,
): Promise<Change | undefined> {
  const rename = value.rename_default_branch;
  const wanted = rename?.to ?? value.default_branch;
  if (wanted === undefined) return undefined;
  const live = answer.default_branch;
  if (live === undefined) return failed(ctx, "default_branch", unreported(ctx, ["default_branch"]));
  const fingerprinted = { default_branch: live };
  if (live === wanted) return part(ctx, "default_branch", updateOrNot([], [], fingerprinted));
  const branches = await branchesOf(ctx);
  if (!Array.isArray(branches)) return failed(ctx, "default_branch", branches);
  const diff = diffValues(fingerprinted, { default_branch: wanted });
  const path = `${ctx.path}/branches`;
  if (rename !== undefined && live === rename.from) {
    if (branches.includes(rename.to)) {
      return failed(
        ctx,
        "default_branch",
        changeError(
          `both branches ${rename.from} and ${rename.to} exist in ${ctx.scope}: rename_default_branch renames ${rename.from} only while ${rename.to} does not exist (remove one of them, or switch with default_branch)`,
          "GET",
          path,
          200,
        ),
      );
    }
    const renaming: PlannedRequest = {
      method: "POST",
      path: `${path}/${encodeURIComponent(rename.from)}/rename`,
      body: { new_name: rename.to },
    };
    return part(ctx, "default_branch", {
      ...updateOrNot(diff, [renaming], fingerprinted),
      notes: [
        `renames branch ${rename.from} to ${rename.to} (GitHub moves its protection and open pull requests with it)`,
      ],
    });
  }
  if (rename !== undefined && !branches.includes(wanted)) {
    return failed(
      ctx,
      "default_branch",
      changeError(
        `the default branch of ${ctx.scope} is ${live}, neither ${rename.from} (to rename) nor ${rename.to}, which does not exist (${namedBranches(branches)})`,
        "GET",
        path,
        200,
      ),
    );
  }
  if (!branches.includes(wanted)) {
    return failed(
      ctx,
      "default_branch",
      changeError(
        `default_branch ${wanted} does not exist in ${ctx.scope} (${namedBranches(branches)}): default_branch switches to an existing branch only; rename_default_branch renames one`,
        "GET",
        path,
        200,
      ),
    );
  }
  return part(
    ctx,
    "default_branch",
    updateOrNot(
      diff,
      [{ method: "PATCH", path: ctx.path, body: { default_branch: wanted } }],
      fingerprinted,
    ),
  );
}

async function planTopics(
  ctx: Context,
  wanted: readonly string[],
  answer: FullRepository,
): Promise<Change> {
  let topics = answer.topics;
  if (topics === undefined) {
    const path = `${ctx.path}/topics`;
    const read = await ctx.reader.getOrAbsent(path, {
      name: "a Topic",
      schema: z.looseObject({ names: z.array(z.string()) }),
    });
    if (read.kind !== "found")
      return failed(
        ctx,
        "topics",
        read.kind === "error"
          ? read.error
          : changeError(`${ctx.scope} was not found`, "GET", path, 404),
      );
    topics = read.data.names;
  }
  const live = { topics: topicSet(topics) };
  const desired = { topics: topicSet(wanted) };
  return part(
    ctx,
    "topics",
    updateOrNot(
      diffValues(live, desired),
      [{ method: "PUT", path: `${ctx.path}/topics`, body: { names: desired.topics } }],
      live,
    ),
  );
}

type Toggle =
  { kind: "found"; on: boolean } | { kind: "unavailable" } | { kind: "error"; error: ChangeError };

async function readAlerts(ctx: Context): Promise<Toggle> {
  // "204 Response if repository is enabled with vulnerability alerts", 404 if not.
  const read = await ctx.reader.getOrAbsent(`${ctx.path}/vulnerability-alerts`, noContent);
  return read.kind === "error" ? read : { kind: "found", on: read.kind === "found" };
}

async function readFixes(ctx: Context): Promise<Toggle> {
  // 404: "Not Found if Dependabot is not enabled for the repository" (its alerts are off).
  const read = await ctx.reader.getOrAbsent(`${ctx.path}/automated-security-fixes`, enabledAnswer);
  if (read.kind === "error") return read;
  return { kind: "found", on: read.kind === "found" && read.data.enabled };
}

async function readReporting(ctx: Context): Promise<Toggle> {
  // A private repository has none: its endpoints answer 404 (see the sandbox's settings routes).
  const read = await ctx.reader.getOrAbsent(
    `${ctx.path}/private-vulnerability-reporting`,
    enabledAnswer,
  );
  if (read.kind === "error") return read;
  return read.kind === "found" ? { kind: "found", on: read.data.enabled } : { kind: "unavailable" };
}

function toggle(
  ctx: Context,
  name: string,
  endpoint: string,
  live: boolean,
  wanted: boolean,
): Change {
  const request: PlannedRequest = {
    method: wanted ? "PUT" : "DELETE",
    path: `${ctx.path}/${endpoint}`,
  };
  return part(
    ctx,
    name,
    updateOrNot(diffValues({ [name]: live }, { [name]: wanted }), [request], { [name]: live }),
  );
}

/**
 * Dependabot alerts and security updates: GitHub refuses either write of the updates while the
 * alerts are off ("Vulnerability alerts must be enabled to configure automated security fixes."),
 * and turning the alerts off turns the updates off.
 */
async function planDependabot(ctx: Context, value: RepositorySettings): Promise<Change[]> {
  const alertsWanted = value.vulnerability_alerts;
  const fixesWanted = value.automated_security_fixes;
  if (alertsWanted === undefined && fixesWanted === undefined) return [];
  const [alerts, fixes] = await Promise.all([
    readAlerts(ctx),
    fixesWanted === undefined ? undefined : readFixes(ctx),
  ]);
  const changes: Change[] = [];
  if (alerts.kind === "error") {
    if (alertsWanted !== undefined) changes.push(failed(ctx, "vulnerability_alerts", alerts.error));
    if (fixesWanted !== undefined)
      changes.push(failed(ctx, "automated_security_fixes", alerts.error));
    return changes;
  }
  const alertsOn = alerts.kind === "found" && alerts.on;
  const alertsAfter = alertsWanted ?? alertsOn;
  const alertsChange =
    alertsWanted === undefined
      ? undefined
      : toggle(ctx, "vulnerability_alerts", "vulnerability-alerts", alertsOn, alertsWanted);
  let fixesChange: Change | undefined;
  if (fixes !== undefined && fixesWanted !== undefined) {
    if (fixes.kind === "error") fixesChange = failed(ctx, "automated_security_fixes", fixes.error);
    else if (fixesWanted && !alertsAfter) {
      fixesChange = failed(
        ctx,
        "automated_security_fixes",
        changeError(
          `automated security fixes need vulnerability alerts, which ${ctx.scope} has off: set vulnerability_alerts: true (GitHub: "Vulnerability alerts must be enabled to configure automated security fixes.")`,
          "GET",
          `${ctx.path}/vulnerability-alerts`,
          404,
        ),
      );
    } else {
      const on = fixes.kind === "found" && fixes.on;
      // With the alerts going off, the fixes go with them: no request of their own.
      fixesChange =
        !alertsAfter && alertsOn
          ? part(ctx, "automated_security_fixes", {
              ...updateOrNot([], [], { automated_security_fixes: on }),
              ...(on
                ? {
                    notes: [
                      "turned off with the vulnerability alerts (Dependabot security updates need Dependabot alerts)",
                    ],
                  }
                : {}),
            })
          : toggle(ctx, "automated_security_fixes", "automated-security-fixes", on, fixesWanted);
    }
  }
  // Alerts turned on before the fixes that need them; turned off, they take the fixes with them.
  if (alertsChange !== undefined) changes.push(alertsChange);
  if (fixesChange !== undefined) changes.push(fixesChange);
  return changes;
}

async function planReporting(
  ctx: Context,
  wanted: boolean,
  answer: FullRepository,
  visibility: Change | undefined,
): Promise<Change> {
  const read = await readReporting(ctx);
  if (read.kind === "error") return failed(ctx, "private_vulnerability_reporting", read.error);
  // Made private, the repository loses it: a DELETE after the visibility change would find none.
  const goesPrivate = visibility?.gate === "visibility" && liveVisibility(answer) === "public";
  if (read.kind === "found" && !wanted && read.on && goesPrivate) {
    return part(ctx, "private_vulnerability_reporting", {
      ...updateOrNot([], [], { private_vulnerability_reporting: read.on }),
      notes: ["turned off with the visibility change: a private repository has none"],
    });
  }
  if (read.kind === "found")
    return toggle(
      ctx,
      "private_vulnerability_reporting",
      "private-vulnerability-reporting",
      read.on,
      wanted,
    );
  if (!wanted)
    return part(
      ctx,
      "private_vulnerability_reporting",
      updateOrNot([], [], { private_vulnerability_reporting: "unavailable" }),
    );
  // Private now: possible once the visibility change (listed before it) made the repository public.
  if (visibility?.gate === "visibility" && liveVisibility(answer) !== "public") {
    return part(ctx, "private_vulnerability_reporting", {
      ...updateOrNot(
        diffValues(
          { private_vulnerability_reporting: false },
          { private_vulnerability_reporting: true },
        ),
        [{ method: "PUT", path: `${ctx.path}/private-vulnerability-reporting` }],
        { private_vulnerability_reporting: "unavailable" },
      ),
      gate: "visibility",
      notes: ["needs the repository public first: applied with the visibility change"],
    });
  }
  return failed(
    ctx,
    "private_vulnerability_reporting",
    changeError(
      `private vulnerability reporting is for public repositories and ${ctx.scope} is ${liveVisibility(answer)}`,
      "GET",
      `${ctx.path}/private-vulnerability-reporting`,
      404,
    ),
  );
}

function planArchived(ctx: Context, wanted: boolean, answer: FullRepository): Change {
  const live = { archived: answer.archived };
  const planned = updateOrNot(
    diffValues(live, { archived: wanted }),
    [{ method: "PATCH", path: ctx.path, body: { archived: wanted } }],
    live,
  );
  return part(
    ctx,
    "archived",
    planned.action === "no-op" ? planned : { ...planned, step: wanted ? "archive" : "unarchive" },
  );
}

/** The rename from a previous name to the entry's, planned when the repository is only found there. */
function planRename(ctx: Context, wanted: RepoRef): Change {
  const live = { name: ctx.at.name };
  const renamed = ctx.at.name !== wanted.name;
  const planned = updateOrNot(
    renamed ? diffValues(live, { name: wanted.name }) : [],
    [{ method: "PATCH", path: ctx.path, body: { name: wanted.name } }],
    live,
  );
  if (!renamed) return part(ctx, "name", planned);
  return part(ctx, "name", {
    ...planned,
    step: "rename",
    notes: [
      `found only under its previous name ${ctx.at.owner}/${ctx.at.name}: GitHub redirects the old name once renamed`,
    ],
  });
}

/** Plans one repository's settings against where the engine located it. */
export async function planSettings(input: {
  reader: ResourceReader;
  repo: RepoRef;
  value: RepositorySettings;
  location: Location | undefined;
  /** What other kinds send with a creation (`creation` of the plan input). */
  creation?: Readonly<Record<string, unknown>>;
}): Promise<Change[]> {
  const { reader, repo, value } = input;
  const location = input.location ?? { kind: "found", at: repo, wanted: repo, archived: false };
  const ctx: Context = {
    reader,
    at: repo,
    path: repoPath(repo),
    scope: `${repo.owner}/${repo.name}`,
  };
  if (location.kind === "error") return [failed(ctx, "repository", location.error)];
  if (location.kind === "absent") {
    if (value.create === true) return [await planCreate(ctx, value, input.creation ?? {})];
    return [
      failed(
        ctx,
        "repository",
        changeError(
          `repository ${ctx.scope} was not found (or ${reader.credential} cannot see it)${value.previously === undefined ? "" : ` under its previous names (${value.previously.join(", ")})`}; settings.create: true creates it`,
          "GET",
          ctx.path,
          404,
        ),
      ),
    ];
  }
  let answer: FullRepository;
  const given =
    location.answer === undefined ? undefined : fullRepository.schema.safeParse(location.answer);
  if (given?.success) answer = given.data;
  else {
    const read = await reader.getOrAbsent(ctx.path, fullRepository);
    if (read.kind !== "found") {
      return [
        failed(
          ctx,
          "repository",
          read.kind === "error"
            ? read.error
            : changeError(
                `repository ${ctx.scope} was not found (or ${reader.credential} cannot see it)`,
                "GET",
                ctx.path,
                404,
              ),
        ),
      ];
    }
    answer = read.data;
  }
  const visibility =
    value.visibility === undefined ? undefined : planVisibility(ctx, value.visibility, answer);
  const planned = await Promise.all([
    planDefaultBranch(ctx, value, answer),
    value.topics === undefined ? undefined : planTopics(ctx, value.topics, answer),
    planDependabot(ctx, value),
    value.private_vulnerability_reporting === undefined
      ? undefined
      : planReporting(ctx, value.private_vulnerability_reporting, answer, visibility),
  ]);
  const [defaultBranch, topics, dependabot, reporting] = planned;
  return [
    planFields(ctx, value, answer),
    visibility,
    defaultBranch,
    topics,
    ...dependabot,
    reporting,
    value.archived === undefined ? undefined : planArchived(ctx, value.archived, answer),
    value.previously === undefined ? undefined : planRename(ctx, location.wanted),
  ].filter((change): change is Change => change !== undefined);
}
