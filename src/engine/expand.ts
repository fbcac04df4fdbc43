import { selectedName, selectsProject, selectsRepository } from "../config/glob.js";
import { mergeLayers } from "../config/merge.js";
import {
  type DesiredState,
  type ScopedEntry,
  scopeState,
  type SettingsLayer,
} from "../config/model.js";
import { SELECTING_SCOPES } from "../config/scopes.js";
import type { SelectingScope } from "../config/spec.js";
import type { ChangeError } from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";
import { LIFECYCLE_KINDS } from "../resources/index.js";
import { type GlobLister, ownerKey } from "./listing.js";
import { projectLister } from "./project-listing.js";
import { repositoryLister } from "./repository-listing.js";

export { ownerKey } from "./listing.js";

/** The desired state of one repository or project after globs are expanded and entries layered. */
export interface ScopedDesired {
  scope: SelectingScope;
  target: string;
  /** The account (GitHub), or the namespace's full path (GitLab; "" for a project named by id). */
  owner: string;
  name: string;
  /** By settings key, as every entry that selects it makes it together. */
  settings: Record<string, unknown>;
  /** The entries that select it, in the order they are merged: globs, then named entries. */
  entries: ScopedEntry[];
  /** Whether it is archived, as a glob's listing said (a named one is located by reading it). */
  archived?: boolean;
  /** What the glob's listing answered of it, where that is what reading it answers (listing.ts). */
  listed?: unknown;
}

export interface Expansion {
  repos: ScopedDesired[];
  /** Globs whose owner could not be listed: reported as plan errors. */
  errors: Array<{ entry: ScopedEntry; error: ChangeError }>;
}

type StateOfScopes = Pick<
  DesiredState,
  "defaults" | "repositories" | "projectDefaults" | "projects"
>;

/** How each scope's globs are listed, and which of the candidates a selector selects. */
const SCOPE_LISTINGS: Record<
  SelectingScope,
  {
    lister(
      globs: readonly ScopedEntry[],
      readers: ReadonlyMap<string, ResourceReader>,
      lookUp: ReadonlyMap<string, readonly string[]>,
    ): GlobLister;
    selects(selector: ScopedEntry["selector"], fullName: string): boolean;
  }
> = {
  repository: { lister: repositoryLister, selects: selectsRepository },
  project: { lister: (globs) => projectLister(globs), selects: selectsProject },
};

/**
 * Expands every selecting scope's entries (repositories, then projects) against live state: see
 * `expandScope`.
 */
export async function expandScopes(
  state: StateOfScopes,
  readers: ReadonlyMap<string, ResourceReader>,
  lookUp: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<Expansion> {
  const expanded = await Promise.all(
    SELECTING_SCOPES.map((scope) => expandScope(scope, scopeState(state, scope), readers, lookUp)),
  );
  return {
    repos: expanded.flatMap((one) => one.repos),
    errors: expanded.flatMap((one) => one.errors),
  };
}

/** The repositories of a state, expanded (`expandScope` for the repository scope). */
export function expandRepositories(
  state: Pick<DesiredState, "defaults" | "repositories">,
  readers: ReadonlyMap<string, ResourceReader>,
  lookUp: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<Expansion> {
  return expandScope(
    "repository",
    { defaults: state.defaults, entries: state.repositories },
    readers,
    lookUp,
  );
}

/**
 * Expands one scope's selectors against live state and merges, per repository or project, every
 * entry that selects it by the one merge policy: the defaults once at the bottom, then glob entries
 * in file order, then named entries in file order, each with its profiles before its own keys — so
 * a named entry refines what a glob set. Each owner a glob lists is listed once (a repository glob
 * with `where: {properties}` also needs the organization's custom property values, once).
 */
export async function expandScope(
  scope: SelectingScope,
  state: { defaults: readonly SettingsLayer[]; entries: readonly ScopedEntry[] },
  readers: ReadonlyMap<string, ResourceReader>,
  /** Owners (by `ownerKey`) whose globs are matched against these names only, read one by one. */
  lookUp: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<Expansion> {
  const slots = new Map<string, Omit<ScopedDesired, "settings">>();
  const errors: Expansion["errors"] = [];
  const slot = (target: string, owner: string, name: string) => {
    const key = `${ownerKey(target, owner)}/${name.toLowerCase()}`;
    let found = slots.get(key);
    if (!found) {
      found = { scope, target, owner, name, entries: [] };
      slots.set(key, found);
    }
    return found;
  };
  const globs = state.entries.filter((entry) => entry.selector.kind === "glob");
  const { lister, selects } = SCOPE_LISTINGS[scope];
  const list = lister(globs, readers, lookUp);
  const listed = await Promise.all(
    globs.map((entry) => {
      const reader = readers.get(entry.target);
      if (!reader) throw new Error(`no reader for target ${entry.target}`);
      return list(entry, reader);
    }),
  );
  globs.forEach((entry, index) => {
    const found = listed[index]!;
    if (found.kind === "error") {
      errors.push({ entry, error: found.error });
      return;
    }
    const withArchived = includesArchived(entry);
    for (const candidate of found.data) {
      // Archived repositories are read-only upstream: a glob selects them only when its entry says
      // what they get (archived_repositories), and then they are planned by that policy.
      if (candidate.archived && !withArchived) continue;
      if (!selects(entry.selector, selectedName(candidate.owner, candidate.name))) continue;
      const selected = slot(entry.target, candidate.owner, candidate.name);
      selected.entries.push(entry);
      selected.archived = candidate.archived;
      if (candidate.answer !== undefined) selected.listed = candidate.answer;
    }
  });
  for (const entry of state.entries) {
    if (entry.selector.kind !== "name") continue;
    slot(entry.target, entry.selector.owner, entry.selector.repo).entries.push(entry);
  }
  const repos = [...slots.values()].map((repo) => ({
    ...repo,
    settings: settingsOf(state.defaults, repo.entries),
  }));
  return { repos, errors };
}

/** Whether a glob entry asks for archived ones too: it says what they get. */
function includesArchived(entry: ScopedEntry): boolean {
  const lifecycle = LIFECYCLE_KINDS[entry.scope];
  if (lifecycle === undefined) return false;
  const value = entry.settings[lifecycle.part.setting.key];
  return lifecycle.part.lifecycle.archivedPolicy(value).explicit;
}

/**
 * What entries that select one repository (or project) ask for together, in the order given: the
 * defaults once, then each entry's layers (its profiles, then its own keys).
 */
export function settingsOf(
  defaults: readonly SettingsLayer[],
  entries: readonly ScopedEntry[],
): Record<string, unknown> {
  // One entry has already made its settings with the defaults under them.
  if (entries.length === 1) return entries[0]!.settings;
  return mergeLayers([...defaults, ...entries.flatMap((entry) => entry.layers)]) as Record<
    string,
    unknown
  >;
}
