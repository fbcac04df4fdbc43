import * as z from "zod";
import { selectsRepository } from "../config/glob.js";
import { mergeLayers } from "../config/merge.js";
import type { DesiredState, RepositoryEntry } from "../config/model.js";
import type { ChangeError } from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";

/** The desired state of one repository after globs are expanded and entries layered. */
export interface RepoDesired {
  target: string;
  owner: string;
  name: string;
  /** By settings key, as every entry that selects the repository makes it together. */
  settings: Record<string, unknown>;
}

export interface Expansion {
  repos: RepoDesired[];
  /** Globs whose organization could not be listed: reported as plan errors. */
  errors: Array<{ entry: RepositoryEntry; error: ChangeError }>;
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
 * Expands repository selectors against live state and merges, per repository, every entry that
 * selects it by the one merge policy: the defaults once at the bottom, then glob entries in file
 * order, then named entries in file order, each with its profiles before its own keys — so a named
 * entry refines what a glob set.
 */
export async function expandRepositories(
  state: Pick<DesiredState, "defaults" | "repositories">,
  readers: ReadonlyMap<string, ResourceReader>,
): Promise<Expansion> {
  const slots = new Map<
    string,
    { target: string; owner: string; name: string; entries: RepositoryEntry[] }
  >();
  const errors: Expansion["errors"] = [];
  const listings = new Map<string, ReturnType<typeof listOwnerRepos>>();
  const slot = (target: string, owner: string, name: string) => {
    const key = `${target}\u0000${owner.toLowerCase()}/${name.toLowerCase()}`;
    let found = slots.get(key);
    if (!found) {
      found = { target, owner, name, entries: [] };
      slots.set(key, found);
    }
    return found;
  };
  const globs = state.repositories.filter((entry) => entry.selector.kind === "glob");
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
      slot(entry.target, owner, repo.name).entries.push(entry);
    }
  });
  for (const entry of state.repositories) {
    if (entry.selector.kind !== "name") continue;
    slot(entry.target, entry.selector.owner, entry.selector.repo).entries.push(entry);
  }
  const repos = [...slots.values()].map(({ entries, ...repo }) => ({
    ...repo,
    settings: settingsOf(state.defaults, entries),
  }));
  return { repos, errors };
}

/**
 * What entries that select one repository ask for together, in the order given: the defaults once,
 * then each entry's layers (its profiles, then its own keys).
 */
export function settingsOf(
  defaults: DesiredState["defaults"],
  entries: readonly RepositoryEntry[],
): Record<string, unknown> {
  // One entry has already made its settings with the defaults under them.
  if (entries.length === 1) return entries[0]!.settings;
  return mergeLayers([...defaults, ...entries.flatMap((entry) => entry.layers)]) as Record<
    string,
    unknown
  >;
}
