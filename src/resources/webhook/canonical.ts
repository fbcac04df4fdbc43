/**
 * A hook as forgeplan compares it: GitHub's webhook (plus the spec's fields) as listed, normalized
 * into one shape whatever site it is at, and what a write must read back. Secrets (`config.secret`,
 * `authorization_header`) are write-only: the service masks them when read, so they are compared
 * by presence only.
 */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { repoPath, type RepoRef } from "../context.js";
import { diffValues } from "../diff.js";

export interface CanonicalHook {
  url: string;
  content_type: string;
  events: string[];
  active: boolean;
  branch_filter: string;
  /** GitHub's "0" (verify TLS certificates) or "1". */
  insecure_ssl: string;
  secret: "set" | "unset";
  authorization_header: "set" | "unset";
}

/** The hook as listed (GitHub's webhook plus the spec's fields); every field the planner reads is checked. */
export const readHook = z.looseObject({
  id: z.number().int(),
  url: z.string().optional(),
  content_type: z.string().optional(),
  active: z.boolean().optional(),
  events: z.array(z.string()).optional(),
  branch_filter: z.string().nullish(),
  authorization_header: z.string().nullish(),
  config: z
    .looseObject({
      url: z.string().optional(),
      content_type: z.string().optional(),
      secret: z.string().nullish(),
      insecure_ssl: z.union([z.string(), z.number()]).optional(),
    })
    .nullish(),
});
export type ReadHook = z.infer<typeof readHook>;

/**
 * Where hooks live: a repository (`/repos/{owner}/{repo}/hooks`) or an organization
 * (`/orgs/{org}/hooks`), and the scope their changes are addressed under.
 */
export interface HookSite {
  scope: string;
  /** The hooks' collection path. */
  path: string;
  owner: "repository" | "organization";
}

export function repositorySite(repo: RepoRef): HookSite {
  return {
    scope: `${repo.owner}/${repo.name}`,
    path: `${repoPath(repo)}/hooks`,
    owner: "repository",
  };
}

export function organizationSite(org: string): HookSite {
  return { scope: org, path: `/orgs/${encodeURIComponent(org)}/hooks`, owner: "organization" };
}

/** GitHub's webhook-config, the answer of `PATCH …/hooks/{id}/config`. */
const readConfig = z.looseObject({
  url: z.string().optional(),
  content_type: z.string().optional(),
  secret: z.string().nullish(),
  insecure_ssl: z.union([z.string(), z.number()]).optional(),
});

/** What a hook is created with when the desired state does not say (GitHub's defaults). */
export const CREATE_DEFAULTS = {
  content_type: "json",
  events: ["push"],
  active: true,
  branch_filter: "*",
  insecure_ssl: "0",
};

export function eventSet(events: readonly string[] | undefined): string[] {
  return [...new Set(events ?? [])].sort();
}

/**
 * The hook as forgeplan compares it. A repository hook's top-level `url` is its delivery URL (the
 * spec's Hook); an organization hook's is its own API URL (GitHub's org-hook), so there only
 * `config.url` is the delivery URL.
 */
export function fromRead(hook: ReadHook, owner: HookSite["owner"] = "repository"): CanonicalHook {
  const config = hook.config ?? {};
  const delivery = owner === "repository" ? hook.url : undefined;
  return {
    url: config.url ?? delivery ?? "",
    // A config without a content type is GitHub's default: "The default is `form`".
    content_type: config.content_type ?? hook.content_type ?? "form",
    events: eventSet(hook.events),
    active: hook.active !== false,
    // GitHub's hooks have no branch filter: every branch, as the spec's "*" says.
    branch_filter: hook.branch_filter || CREATE_DEFAULTS.branch_filter,
    insecure_ssl: String(config.insecure_ssl ?? CREATE_DEFAULTS.insecure_ssl),
    secret: config.secret ? "set" : "unset",
    authorization_header: hook.authorization_header ? "set" : "unset",
  };
}

export const WRITE_ONLY = ["secret", "authorization_header"] as const;
export type WriteOnly = (typeof WRITE_ONLY)[number];

export function markSensitive(diff: DiffEntry[]): DiffEntry[] {
  return diff.map((entry) =>
    (WRITE_ONLY as readonly string[]).includes(entry.path) ? { ...entry, sensitive: true } : entry,
  );
}

/**
 * Compares what a request sent with what the service answered: a hook (POST, hook PATCH) or its
 * config (config PATCH). A write-only value only has to read back as set.
 */
export function verifyWritten(request: PlannedRequest, response: unknown): DiffEntry[] {
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const isConfig = request.path.endsWith("/config");
  const parsed = isConfig ? readConfig.safeParse(response) : readHook.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "a webhook", after: "something else" }];
  }
  const actual = isConfig
    ? fromRead({ id: 0, config: parsed.data as z.infer<typeof readConfig> })
    : fromRead(parsed.data as ReadHook);
  const config = (isConfig ? sent : (sent.config ?? {})) as Record<string, unknown>;
  const expected: Record<string, unknown> = {};
  const got: Record<string, unknown> = {};
  const compare = (key: keyof CanonicalHook, value: unknown) => {
    expected[key] = value;
    got[key] = actual[key];
  };
  for (const key of ["url", "content_type", "insecure_ssl"] as const) {
    if (config[key] !== undefined) compare(key, String(config[key]));
  }
  if (config.secret !== undefined) compare("secret", "set");
  if (!isConfig) {
    if (sent.events !== undefined) compare("events", eventSet(sent.events as string[]));
    if (sent.active !== undefined) compare("active", sent.active);
    if (sent.branch_filter !== undefined) compare("branch_filter", sent.branch_filter);
    if (sent.authorization_header !== undefined) compare("authorization_header", "set");
  }
  return diffValues(expected, got);
}
