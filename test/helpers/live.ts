import type { RunningSandbox } from "../../src/sandbox/index.js";
import { call as request } from "./sandbox.js";

/**
 * Sets and reads live state over plain HTTP, as another actor on the service would. Nothing here is
 * shared with forgeplan's resource kinds, so tests that use it check forgeplan against an independent
 * reading of the service's shapes.
 */

type Json = Record<string, unknown>;

/** One repository of a running sandbox, with a token that administers it. */
export interface LiveRepo {
  world: RunningSandbox;
  token: string;
  owner: string;
  name: string;
}

/** A request to the repository's own paths that must be answered with one of `allowed`. */
async function call(
  repo: LiveRepo,
  method: string,
  path: string,
  body: unknown,
  allowed: number[],
): Promise<{ status: number; body: unknown }> {
  const response = await request(repo.world, method, `/repos/${repo.owner}/${repo.name}${path}`, {
    token: repo.token,
    ...(body === undefined ? {} : { body }),
  });
  if (!allowed.includes(response.status)) {
    throw new Error(`${method} ${path} answered ${response.status}: ${response.text}`);
  }
  return response;
}

function protectionPath(branch: string): string {
  return `/branches/${encodeURIComponent(branch)}/protection`;
}

/** Replaces a branch's protection with a PUT body, or removes it (null). */
export async function setProtection(repo: LiveRepo, branch: string, body: Json | null) {
  if (body === null) await call(repo, "DELETE", protectionPath(branch), undefined, [204, 404]);
  else await call(repo, "PUT", protectionPath(branch), body, [200]);
}

/** The Protected Branch record as read, or null when the branch is unprotected. */
export async function readProtection(repo: LiveRepo, branch: string): Promise<Json | null> {
  const { status, body } = await call(repo, "GET", protectionPath(branch), undefined, [200, 404]);
  return status === 404 ? null : (body as Json);
}

export const PROTECTION_FLAGS = [
  "required_linear_history",
  "allow_force_pushes",
  "allow_deletions",
  "block_creations",
  "required_conversation_resolution",
  "lock_branch",
  "allow_fork_syncing",
] as const;

export interface PrincipalNames {
  users: string[];
  teams: string[];
  apps: string[];
}

/** The PUT body as a test edits it: every member present, principals as names. */
export interface ProtectionBody extends Json {
  required_status_checks: {
    strict: boolean;
    checks: Array<{ context: string; app_id: number }>;
  } | null;
  enforce_admins: boolean;
  required_pull_request_reviews: Json | null;
  restrictions: PrincipalNames | null;
}

function names(items: unknown, key: "login" | "slug"): string[] {
  return ((items as Json[] | undefined) ?? []).map((item) => String(item[key]));
}

function namesOf(value: unknown): PrincipalNames {
  const read = value as Json;
  return {
    users: names(read.users, "login"),
    teams: names(read.teams, "slug"),
    apps: names(read.apps, "slug"),
  };
}

/** The PUT body that writes a Protected Branch record back exactly as it was read. */
export function bodyOf(read: Json): ProtectionBody {
  const rsc = read.required_status_checks as Json | undefined;
  const rpr = read.required_pull_request_reviews as Json | undefined;
  const body: ProtectionBody = {
    required_status_checks: rsc
      ? {
          strict: rsc.strict as boolean,
          checks: (rsc.checks as Json[]).map((check) => ({
            context: String(check.context),
            app_id: (check.app_id as number | null) ?? -1,
          })),
        }
      : null,
    enforce_admins: (read.enforce_admins as Json).enabled === true,
    required_pull_request_reviews: rpr
      ? {
          dismiss_stale_reviews: rpr.dismiss_stale_reviews,
          require_code_owner_reviews: rpr.require_code_owner_reviews,
          required_approving_review_count: rpr.required_approving_review_count,
          require_last_push_approval: rpr.require_last_push_approval,
          ...(rpr.dismissal_restrictions
            ? { dismissal_restrictions: namesOf(rpr.dismissal_restrictions) }
            : {}),
          ...(rpr.bypass_pull_request_allowances
            ? { bypass_pull_request_allowances: namesOf(rpr.bypass_pull_request_allowances) }
            : {}),
        }
      : null,
    restrictions: read.restrictions ? namesOf(read.restrictions) : null,
  };
  for (const flag of PROTECTION_FLAGS) body[flag] = (read[flag] as Json).enabled;
  return body;
}

/** The Hook read shape, as far as tests look at it. */
export interface LiveHook {
  id: number;
  content_type: string;
  events: string[];
  active: boolean;
  branch_filter: string;
  config: Record<string, string>;
  authorization_header?: string;
}

export async function listHooks(repo: LiveRepo): Promise<LiveHook[]> {
  return (await call(repo, "GET", "/hooks?per_page=100", undefined, [200])).body as LiveHook[];
}

/**
 * Creates a hook as a user of the service must: GitHub's create body is closed, so the spec's
 * `branch_filter` and `authorization_header` are set by a PATCH of the hook just created.
 */
export async function createHook(repo: LiveRepo, body: Json): Promise<void> {
  const { branch_filter, authorization_header, ...create } = body;
  const created = await call(repo, "POST", "/hooks", create, [201]);
  const fields = { branch_filter, authorization_header };
  if (branch_filter !== undefined || authorization_header !== undefined) {
    await call(repo, "PATCH", `/hooks/${(created.body as { id: number }).id}`, fields, [200]);
  }
}

/**
 * Edits a hook without touching what the edit does not name: config keys through the config
 * endpoint, the rest through a hook PATCH without `config` (which would remove the secret).
 */
export async function patchHook(repo: LiveRepo, id: number, body: Json): Promise<void> {
  const { config, ...fields } = body;
  if (config !== undefined) await call(repo, "PATCH", `/hooks/${id}/config`, config, [200]);
  if (Object.keys(fields).length > 0) await call(repo, "PATCH", `/hooks/${id}`, fields, [200]);
}

export async function deleteHook(repo: LiveRepo, id: number): Promise<void> {
  await call(repo, "DELETE", `/hooks/${id}`, undefined, [204]);
}

/** Replaces every hook of the repository with the ones given (POST bodies). */
export async function resetHooks(repo: LiveRepo, hooks: Json[]): Promise<void> {
  await Promise.all((await listHooks(repo)).map((hook) => deleteHook(repo, hook.id)));
  // One after another, so hook ids follow the order given and a run replays exactly.
  for (const hook of hooks) await createHook(repo, hook);
}
