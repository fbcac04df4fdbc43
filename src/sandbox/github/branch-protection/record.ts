import { requestViolations } from "../request-rules.js";
import { teamsOf } from "../team/records.js";
import { app } from "../apps/shapes.js";
import { simpleUser } from "../world/shapes.js";
import { team } from "../team/shapes.js";
import type { Account, App, Repository, GithubWorld } from "../world/records.js";
import { type Principals, type Protection, recentChecksOf } from "./records.js";
import { type Team, teamCanPush } from "../team/records.js";

/**
 * Branch protection: the PUT body's checks and rules (spec endpoint 1), turning it into the stored
 * record (records.ts), and the Protected Branch read shape.
 */

interface PrincipalLists {
  users?: string[];
  teams?: string[];
  apps?: string[];
}

/**
 * The PUT body (spec endpoint 1) as GitHub's request schema, with the spec's exceptions, lets it
 * through (request-rules.ts). Unknown members pass that schema (it is open) and are ignored here.
 */
interface ProtectionBody {
  required_status_checks: {
    strict: boolean;
    contexts?: string[];
    checks?: { context: string; app_id?: number }[];
  } | null;
  enforce_admins: boolean | null;
  required_pull_request_reviews: {
    dismissal_restrictions?: PrincipalLists;
    dismiss_stale_reviews?: boolean;
    require_code_owner_reviews?: boolean;
    required_approving_review_count?: number;
    require_last_push_approval?: boolean;
    bypass_pull_request_allowances?: PrincipalLists;
  } | null;
  restrictions: { users: string[]; teams: string[]; apps?: string[] } | null;
  required_linear_history?: boolean;
  allow_force_pushes?: boolean | null;
  allow_deletions?: boolean;
  block_creations?: boolean;
  required_conversation_resolution?: boolean;
  lock_branch?: boolean;
  allow_fork_syncing?: boolean;
}

/** The PUT's operation, whose request schema checks bodies and seeds alike. */
export const PROTECTION_OPERATION = "PUT /repos/{owner}/{repo}/branches/{branch}/protection";

export const MAX_PRINCIPALS = 100;
const WILDCARD = /[*?[\]]/;

export function isWildcardBranch(name: string): boolean {
  return WILDCARD.test(name);
}

function countPrincipals(lists: PrincipalLists | undefined | null): number {
  if (!lists) return 0;
  return (lists.users?.length ?? 0) + (lists.teams?.length ?? 0) + (lists.apps?.length ?? 0);
}

/** Resolves logins and slugs to world objects, collecting one error per unknown name. */
function resolvePrincipals(
  world: GithubWorld,
  repo: Repository,
  lists: PrincipalLists,
  field: string,
  errors: string[],
): Principals {
  const users: Account[] = [];
  for (const login of new Set(lists.users ?? [])) {
    const found = world.account(login);
    if (found?.type === "User") users.push(found);
    else errors.push(`${field}.users: user '${login}' does not exist`);
  }
  const teams: Team[] = [];
  for (const slug of new Set(lists.teams ?? [])) {
    const found = repo.org === null ? undefined : teamsOf(repo.org).get(slug.toLowerCase());
    if (found) teams.push(found);
    else errors.push(`${field}.teams: team '${slug}' does not exist in ${repo.owner.login}`);
  }
  const apps: App[] = [];
  for (const slug of new Set(lists.apps ?? [])) {
    const found = world.apps.get(slug.toLowerCase());
    if (found) apps.push(found);
    else errors.push(`${field}.apps: app '${slug}' does not exist`);
  }
  return { users, teams, apps };
}

function resolveChecks(
  world: GithubWorld,
  repo: Repository,
  input: NonNullable<ProtectionBody["required_status_checks"]>,
  errors: string[],
): { context: string; app_id: number | null }[] {
  // The schema lets exactly one of `checks` and the closing-down `contexts` through.
  const requested =
    input.checks ?? (input.contexts ?? []).map((context) => ({ context, app_id: undefined }));
  const seen = new Set<string>();
  const checks: { context: string; app_id: number | null }[] = [];
  for (const check of requested) {
    if (seen.has(check.context)) continue;
    seen.add(check.context);
    let appId: number | null;
    if (check.app_id === undefined) appId = recentChecksOf(repo).get(check.context) ?? null;
    else if (check.app_id === -1) appId = null;
    else if (world.appsById.has(check.app_id)) appId = check.app_id;
    else {
      errors.push(`required_status_checks.checks: app_id ${check.app_id} is not an installed app`);
      appId = null;
    }
    checks.push({ context: check.context, app_id: appId });
  }
  return checks;
}

export type ProtectionResult = { protection: Protection } | { errors: string[] };

/**
 * Checks a PUT body (or a seed's protection) against the request schema, the spec's rules and the
 * repository, and builds the record it would store. Nothing is changed here: the caller stores the
 * result only when there are no errors.
 */
export function protectionFromBody(
  world: GithubWorld,
  repo: Repository,
  raw: Record<string, unknown>,
  requiredSignatures: boolean,
): ProtectionResult {
  const violations = requestViolations(PROTECTION_OPERATION, raw);
  if (violations.length > 0) return { errors: violations };
  const body = raw as unknown as ProtectionBody;
  const errors: string[] = [];
  const personal = repo.org === null;
  const reviews = body.required_pull_request_reviews;

  const total =
    countPrincipals(body.restrictions) +
    countPrincipals(reviews?.dismissal_restrictions) +
    countPrincipals(reviews?.bypass_pull_request_allowances);
  if (total > MAX_PRINCIPALS) {
    errors.push(
      `users, teams and apps: at most ${MAX_PRINCIPALS} may be listed in total, got ${total}`,
    );
  }
  const count = reviews?.required_approving_review_count;
  if (count !== undefined && (count < 0 || count > 6)) {
    errors.push(
      `required_pull_request_reviews.required_approving_review_count: must be 0 to 6, got ${count}`,
    );
  }
  // The spec's rule, and GitHub's: "Your repository must allow squash merging or rebase merging
  // before you can enable a linear commit history" (the PUT's schema in @octokit/openapi).
  if (
    body.required_linear_history === true &&
    !repo.allow_squash_merge &&
    !repo.allow_rebase_merge
  ) {
    errors.push(
      "required_linear_history: the repository must allow squash or rebase merging before linear history can be required",
    );
  }
  if (personal && body.restrictions !== null) {
    errors.push(
      "restrictions: only organization repositories can have users, teams and apps restrictions",
    );
  }
  const dismissal = reviews?.dismissal_restrictions;
  if (personal && ((dismissal?.users?.length ?? 0) > 0 || (dismissal?.teams?.length ?? 0) > 0)) {
    errors.push(
      "required_pull_request_reviews.dismissal_restrictions: users and teams are only for organization repositories",
    );
  }
  if (errors.length > 0) return { errors };

  const checks = body.required_status_checks
    ? resolveChecks(world, repo, body.required_status_checks, errors)
    : null;
  let restrictions: Principals | null = null;
  if (body.restrictions) {
    const resolved = resolvePrincipals(world, repo, body.restrictions, "restrictions", errors);
    // GitHub keeps only principals that can push; others are dropped from the record without an error.
    restrictions = {
      users: resolved.users.filter((user) => world.can(repo, user, "push")),
      teams: resolved.teams.filter((value) => teamCanPush(repo, value)),
      apps: resolved.apps,
    };
  }
  let reviewRecord: Protection["required_pull_request_reviews"] = null;
  if (reviews) {
    const dismissalGiven = dismissal !== undefined && Object.keys(dismissal).length > 0;
    const bypass = reviews.bypass_pull_request_allowances;
    const bypassRecord = bypass
      ? resolvePrincipals(world, repo, bypass, "bypass_pull_request_allowances", errors)
      : null;
    reviewRecord = {
      dismiss_stale_reviews: reviews.dismiss_stale_reviews ?? false,
      require_code_owner_reviews: reviews.require_code_owner_reviews ?? false,
      required_approving_review_count: count ?? 1,
      require_last_push_approval: reviews.require_last_push_approval ?? false,
      dismissal_restrictions: dismissalGiven
        ? resolvePrincipals(world, repo, dismissal, "dismissal_restrictions", errors)
        : null,
      bypass_pull_request_allowances:
        bypassRecord && countPrincipals(bypass) > 0 ? bypassRecord : null,
    };
  }
  if (errors.length > 0) return { errors };
  return {
    protection: {
      required_status_checks:
        body.required_status_checks && checks
          ? { strict: body.required_status_checks.strict, checks }
          : null,
      enforce_admins: body.enforce_admins ?? false,
      required_pull_request_reviews: reviewRecord,
      restrictions,
      required_signatures: requiredSignatures,
      required_linear_history: body.required_linear_history ?? false,
      allow_force_pushes: body.allow_force_pushes ?? false,
      allow_deletions: body.allow_deletions ?? false,
      block_creations: body.block_creations ?? false,
      required_conversation_resolution: body.required_conversation_resolution ?? false,
      lock_branch: body.lock_branch ?? false,
      allow_fork_syncing: body.allow_fork_syncing ?? false,
    },
  };
}

function principalsShape(base: string, value: Principals) {
  return {
    users: value.users.map((user) => simpleUser(base, user)),
    teams: value.teams.map((item) => team(base, item)),
    apps: value.apps.map((item) => app(base, item)),
  };
}

/** The Protected Branch record. Disabled objects are absent; switches always read as `{enabled}`. */
export function protectedBranch(
  base: string,
  repo: Repository,
  branchName: string,
  value: Protection,
): Record<string, unknown> {
  const url = `${base}/repos/${repo.owner.login}/${repo.name}/branches/${encodeURIComponent(branchName)}/protection`;
  const record: Record<string, unknown> = { url };
  const checks = value.required_status_checks;
  if (checks) {
    record.required_status_checks = {
      url: `${url}/required_status_checks`,
      strict: checks.strict,
      contexts: checks.checks.map((check) => check.context),
      checks: checks.checks,
      contexts_url: `${url}/required_status_checks/contexts`,
    };
  }
  const reviews = value.required_pull_request_reviews;
  if (reviews) {
    const reviewsUrl = `${url}/required_pull_request_reviews`;
    record.required_pull_request_reviews = {
      url: reviewsUrl,
      dismiss_stale_reviews: reviews.dismiss_stale_reviews,
      require_code_owner_reviews: reviews.require_code_owner_reviews,
      required_approving_review_count: reviews.required_approving_review_count,
      require_last_push_approval: reviews.require_last_push_approval,
      ...(reviews.dismissal_restrictions
        ? {
            dismissal_restrictions: {
              url: `${url}/dismissal_restrictions`,
              users_url: `${url}/dismissal_restrictions/users`,
              teams_url: `${url}/dismissal_restrictions/teams`,
              ...principalsShape(base, reviews.dismissal_restrictions),
            },
          }
        : {}),
      ...(reviews.bypass_pull_request_allowances
        ? {
            bypass_pull_request_allowances: principalsShape(
              base,
              reviews.bypass_pull_request_allowances,
            ),
          }
        : {}),
    };
  }
  record.required_signatures = {
    url: `${url}/required_signatures`,
    enabled: value.required_signatures,
  };
  record.enforce_admins = { url: `${url}/enforce_admins`, enabled: value.enforce_admins };
  for (const key of [
    "required_linear_history",
    "allow_force_pushes",
    "allow_deletions",
    "block_creations",
    "required_conversation_resolution",
    "lock_branch",
    "allow_fork_syncing",
  ] as const) {
    record[key] = { enabled: value[key] };
  }
  if (value.restrictions) {
    record.restrictions = {
      url: `${url}/restrictions`,
      users_url: `${url}/restrictions/users`,
      teams_url: `${url}/restrictions/teams`,
      apps_url: `${url}/restrictions/apps`,
      ...principalsShape(base, value.restrictions),
    };
  }
  return record;
}
