import { type Change, newChange, type PlannedRequest } from "../../core/plan.js";
import {
  changeError,
  repoPath,
  type RepoRef,
  type ResourceReader,
  toChangeError,
} from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { desiredFields, desiredSecurity, SECURITY_FEATURES, topicSet } from "./canonical.js";
import type { RepositorySettings } from "./settings.js";

/**
 * The fields GitHub's request schemas for `POST /orgs/{org}/repos` and `POST /user/repos` both take;
 * the other PATCH fields (allow_forking, allow_update_branch, web_commit_signoff_required,
 * security_and_analysis) are set by a PATCH of the new repository, in the same change.
 */
const CREATABLE = [
  "description",
  "homepage",
  "has_issues",
  "has_projects",
  "has_wiki",
  "is_template",
  "allow_squash_merge",
  "allow_merge_commit",
  "allow_rebase_merge",
  "allow_auto_merge",
  "delete_branch_on_merge",
  "squash_merge_commit_title",
  "squash_merge_commit_message",
  "merge_commit_title",
  "merge_commit_message",
] as const;

interface Context {
  reader: ResourceReader;
  at: RepoRef;
  scope: string;
}

/**
 * Where a repository of `owner` is created: under the credential's own user with `POST /user/repos`
 * (whose schema has `private`, not `visibility`), else under the organization.
 */
async function creationPath(
  ctx: Context,
): Promise<{ path: string; personal: boolean } | { error: ReturnType<typeof toChangeError> }> {
  // An App installation creates under the organization it is installed on.
  if (ctx.reader.client.credential !== undefined) {
    return { path: `/orgs/${encodeURIComponent(ctx.at.owner)}/repos`, personal: false };
  }
  try {
    const login = await ctx.reader.client.login();
    const personal = login?.toLowerCase() === ctx.at.owner.toLowerCase();
    return personal
      ? { path: "/user/repos", personal }
      : { path: `/orgs/${encodeURIComponent(ctx.at.owner)}/repos`, personal };
  } catch (error) {
    return { error: toChangeError(error, "GET", "/user") };
  }
}

/**
 * Creates a repository that does not exist with the entry's settings: the POST with what it takes,
 * then, in the same change, the writes of what only exists once the repository does. An empty
 * repository has no branch to make the default, so `default_branch` is planned once it has one.
 */
export async function planCreate(
  ctx: Context,
  value: RepositorySettings,
  creation: Readonly<Record<string, unknown>>,
): Promise<Change> {
  const change = newChange(ctx.reader.target, ctx.scope, "settings", "repository");
  const where = await creationPath(ctx);
  if ("error" in where) return { ...change, error: where.error };
  if (value.automated_security_fixes === true && value.vulnerability_alerts !== true) {
    return {
      ...change,
      error: changeError(
        'automated_security_fixes: true needs vulnerability_alerts: true for a new repository (GitHub: "Vulnerability alerts must be enabled to configure automated security fixes.")',
      ),
    };
  }
  const fields = desiredFields(value);
  const visibility = value.visibility ?? "private";
  const create: Record<string, unknown> = {
    name: ctx.at.name,
    ...(where.personal ? { private: visibility === "private" } : { visibility }),
  };
  for (const field of CREATABLE) {
    const wanted = fields[field];
    if (wanted !== undefined && wanted !== null) create[field] = wanted;
  }
  // What other kinds send with the creation (custom property values an organization requires):
  // only `POST /orgs/{org}/repos` takes them; a personal repository has no custom properties.
  const given = where.personal ? {} : creation;
  Object.assign(create, given);
  const path = repoPath(ctx.at);
  const requests: PlannedRequest[] = [{ method: "POST", path: where.path, body: create }];
  const later: Record<string, unknown> = {};
  for (const field of [
    "allow_forking",
    "allow_update_branch",
    "web_commit_signoff_required",
  ] as const) {
    if (fields[field] !== undefined) later[field] = fields[field];
  }
  const security =
    value.security_and_analysis === undefined
      ? undefined
      : desiredSecurity(value.security_and_analysis);
  if (security !== undefined) {
    const body: Record<string, unknown> = {};
    for (const feature of SECURITY_FEATURES) {
      if (security[feature] !== undefined) body[feature] = { status: security[feature] };
    }
    if (security.bypass_reviewers !== undefined) {
      body.secret_scanning_delegated_bypass_options = { reviewers: security.bypass_reviewers };
    }
    later.security_and_analysis = body;
  }
  if (Object.keys(later).length > 0) requests.push({ method: "PATCH", path, body: later });
  const topics = value.topics === undefined ? [] : topicSet(value.topics);
  if (topics.length > 0)
    requests.push({ method: "PUT", path: `${path}/topics`, body: { names: topics } });
  if (value.vulnerability_alerts === true)
    requests.push({ method: "PUT", path: `${path}/vulnerability-alerts` });
  if (value.automated_security_fixes === true)
    requests.push({ method: "PUT", path: `${path}/automated-security-fixes` });
  if (value.private_vulnerability_reporting === true)
    requests.push({ method: "PUT", path: `${path}/private-vulnerability-reporting` });
  if (value.archived === true) requests.push({ method: "PATCH", path, body: { archived: true } });
  const after = {
    ...given,
    visibility,
    ...fields,
    ...(security === undefined ? {} : { security_and_analysis: security }),
    ...(value.topics === undefined ? {} : { topics }),
    ...Object.fromEntries(
      (
        [
          "vulnerability_alerts",
          "automated_security_fixes",
          "private_vulnerability_reporting",
          "archived",
        ] as const
      )
        .filter((key) => value[key] !== undefined)
        .map((key) => [key, value[key]]),
    ),
  };
  const pendingBranch = value.rename_default_branch?.to ?? value.default_branch;
  return {
    ...change,
    action: "create",
    diff: diffValues({}, after),
    requests,
    live_fingerprint: fingerprint(null),
    step: "create",
    gate: "create",
    notes: [
      `created with ${where.path === "/user/repos" ? "POST /user/repos" : `POST /orgs/${ctx.at.owner}/repos`}; forgeplan never deletes a repository`,
      ...(pendingBranch === undefined
        ? []
        : [
            `default_branch ${pendingBranch} is planned once the repository has branches (a new one is empty)`,
          ]),
    ],
  };
}
