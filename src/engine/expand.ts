import * as z from "zod";
import { selectsRepository } from "../config/glob.js";
import type {
  BranchProtectionSettings,
  RepositoryEntry,
  WebhookSettings,
} from "../config/model.js";
import type { ChangeError } from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";

/** The desired state of one repository after globs are expanded and entries layered. */
export interface RepoDesired {
  target: string;
  owner: string;
  name: string;
  branchProtection: Map<string, BranchProtectionSettings | null>;
  webhooks?: { mode: "additive" | "authoritative"; hooks: WebhookSettings[] };
  invitations?: RepositoryEntry["invitations"];
}

export interface Expansion {
  repos: RepoDesired[];
  /** Globs whose organization could not be listed: reported as plan errors. */
  errors: Array<{ entry: RepositoryEntry; error: ChangeError }>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Maps merge deeply; lists and null replace (the same rule the loader documents for profiles). */
export function deepMerge<T>(base: T, over: T): T {
  if (!isObject(base) || !isObject(over)) return over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    merged[key] = key in merged ? deepMerge(merged[key], value) : value;
  }
  return merged as T;
}

function layer(into: RepoDesired, entry: RepositoryEntry): void {
  for (const [branch, settings] of Object.entries(entry.branchProtection)) {
    const previous = into.branchProtection.get(branch);
    into.branchProtection.set(
      branch,
      previous === undefined || previous === null || settings === null
        ? settings
        : deepMerge(previous, settings),
    );
  }
  if (entry.webhooks) {
    const hooks = new Map((into.webhooks?.hooks ?? []).map((hook) => [hook.url, hook]));
    for (const hook of entry.webhooks.hooks) {
      const previous = hooks.get(hook.url);
      hooks.set(hook.url, previous ? { ...previous, ...hook } : hook);
    }
    into.webhooks = { mode: entry.webhooks.mode, hooks: [...hooks.values()] };
  }
  if (entry.invitations) into.invitations = entry.invitations;
}

const listedRepo = {
  name: "repositories",
  schema: z.looseObject({
    name: z.string(),
    archived: z.boolean().optional(),
    owner: z.looseObject({ login: z.string().optional() }).nullish(),
  }),
};

/** Lists an account's repositories: as an organization first, then as a user. */
async function listOwnerRepos(reader: ResourceReader, owner: string) {
  const asOrg = await reader.list(
    `/orgs/${encodeURIComponent(owner)}/repos`,
    { type: "all" },
    listedRepo,
  );
  if (asOrg.kind !== "absent") return asOrg;
  return reader.list(`/users/${encodeURIComponent(owner)}/repos`, { type: "owner" }, listedRepo);
}

/**
 * Expands repository selectors against live state and layers the entries per repository: glob
 * entries first, in file order, then explicit entries, so an explicit entry refines what a glob set.
 */
export async function expandRepositories(
  entries: readonly RepositoryEntry[],
  readers: ReadonlyMap<string, ResourceReader>,
): Promise<Expansion> {
  const repos = new Map<string, RepoDesired>();
  const errors: Expansion["errors"] = [];
  const listings = new Map<string, ReturnType<typeof listOwnerRepos>>();
  const slot = (target: string, owner: string, name: string) => {
    const key = `${target}\u0000${owner.toLowerCase()}/${name.toLowerCase()}`;
    let repo = repos.get(key);
    if (!repo) {
      repo = { target, owner, name, branchProtection: new Map() };
      repos.set(key, repo);
    }
    return repo;
  };
  const globs = entries.filter((entry) => entry.selector.kind === "glob");
  const listed = await Promise.all(
    globs.map((entry) => {
      const reader = readers.get(entry.target);
      if (!reader) throw new Error(`no reader for target ${entry.target}`);
      const key = `${entry.target}\u0000${entry.selector.owner.toLowerCase()}`;
      let listing = listings.get(key);
      if (!listing) {
        listing = listOwnerRepos(reader, entry.selector.owner);
        listings.set(key, listing);
      }
      return listing;
    }),
  );
  globs.forEach((entry, index) => {
    const selector = entry.selector;
    if (selector.kind !== "glob") return;
    const result = listed[index]!;
    if (result.kind !== "found") {
      errors.push({
        entry,
        error:
          result.kind === "error"
            ? result.error
            : { message: `account ${selector.owner} was not found`, status: 404 },
      });
      return;
    }
    for (const repo of result.data) {
      // Archived repositories are read-only upstream: protections and hooks cannot be changed there.
      if (repo.archived) continue;
      const owner = repo.owner?.login ?? selector.owner;
      if (!selectsRepository(selector, `${owner}/${repo.name}`)) continue;
      layer(slot(entry.target, owner, repo.name), entry);
    }
  });
  for (const entry of entries) {
    if (entry.selector.kind !== "name") continue;
    layer(slot(entry.target, entry.selector.owner, entry.selector.repo), entry);
  }
  return { repos: [...repos.values()], errors };
}
