import * as z from "zod";
import { selectsRepository } from "../config/glob.js";
import { mergeLayers } from "../config/merge.js";
import type { DesiredState, RepositoryEntry } from "../config/model.js";
import type { ChangeError } from "../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "../resources/context.js";

/** The desired state of one repository after globs are expanded and entries layered. */
export interface RepoDesired {
  target: string;
  owner: string;
  name: string;
  /** By settings key, as every entry that selects the repository makes it together. */
  settings: Record<string, unknown>;
  /** The entries that select it, in the order they are merged: globs, then named entries. */
  entries: RepositoryEntry[];
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

const propertyValue = z.looseObject({
  property_name: z.string(),
  value: z.union([z.string(), z.array(z.string())]).nullable(),
});

const propertyValues = {
  name: "custom property values",
  schema: z.looseObject({
    repository_name: z.string(),
    properties: z.array(propertyValue),
  }),
};

const repositoryValues = {
  name: "a list of custom property values",
  schema: z.array(propertyValue),
};

/** A repository's custom property values, by lower-case property name. */
type Properties = ReadonlyMap<string, string | string[] | null>;
type Listed = z.infer<typeof listedRepo.schema>;

const byName = (values: ReadonlyArray<z.infer<typeof propertyValue>>): Properties =>
  new Map(values.map((item) => [item.property_name.toLowerCase(), item.value]));

/** The key of an owner of one target, as `expandRepositories` takes it in `lookUp`. */
export const ownerKey = (target: string, owner: string) => `${target}\u0000${owner.toLowerCase()}`;

/** Lists an account's repositories: as an organization first, then as a user. */
const ownerReposPath = (owner: string) => `/users/${encodeURIComponent(owner)}/repos`;
const propertiesPath = (owner: string) => `/orgs/${encodeURIComponent(owner)}/properties/values`;

async function listOwnerRepos(reader: ResourceReader, owner: string) {
  const asOrg = await reader.list(
    `/orgs/${encodeURIComponent(owner)}/repos`,
    { type: "all" },
    listedRepo,
  );
  if (asOrg.kind !== "absent") return asOrg;
  return reader.list(ownerReposPath(owner), { type: "owner" }, listedRepo);
}

/**
 * The custom property values of every repository of an organization, one request per 100
 * repositories, by lower-case repository name. Property names are case-insensitive on the service
 * (observed: joshjohanning/github-misc-scripts#42, "the property name is case insensitive, but the
 * value is case sensitive").
 */
async function listOwnerProperties(
  reader: ResourceReader,
  owner: string,
): Promise<ReadResult<Map<string, Properties>>> {
  const listed = await reader.list(propertiesPath(owner), undefined, propertyValues);
  if (listed.kind !== "found") return listed;
  const byRepo = new Map<string, Properties>();
  for (const repo of listed.data) {
    byRepo.set(repo.repository_name.toLowerCase(), byName(repo.properties));
  }
  return { kind: "found", data: byRepo };
}

/**
 * Some repositories of an owner read one by one, in the shape of the owner's listings: what a few
 * repositories need costs a few reads, not a listing of the whole organization. A repository that
 * is not there is left out, as a listing would.
 */
async function lookUpRepos(
  reader: ResourceReader,
  owner: string,
  names: readonly string[],
  withProperties: boolean,
): Promise<{ repos: ReadResult<Listed[]>; properties: ReadResult<Map<string, Properties>> }> {
  const reads = await Promise.all(
    names.map(async (name) => {
      const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
      // Both at once: the properties of a repository that turns out absent are not used.
      const [repo, values] = await Promise.all([
        reader.getOrAbsent(path, listedRepo),
        withProperties
          ? reader.getOrAbsent(`${path}/properties/values`, repositoryValues)
          : undefined,
      ]);
      return { repo, values };
    }),
  );
  const repos: Listed[] = [];
  const properties = new Map<string, Properties>();
  for (const { repo, values } of reads) {
    if (repo.kind === "error") return { repos: repo, properties: repo };
    if (repo.kind === "absent") continue;
    if (values?.kind === "error") return { repos: values, properties: values };
    repos.push(repo.data);
    // A repository without properties (a user's) has none to match.
    if (values?.kind === "found") properties.set(repo.data.name.toLowerCase(), byName(values.data));
  }
  return { repos: { kind: "found", data: repos }, properties: { kind: "found", data: properties } };
}

/** Whether a repository's values meet every wanted property: one of the values listed for it. */
export function matchesProperties(
  wanted: Readonly<Record<string, readonly string[]>>,
  values: Properties | undefined,
): boolean {
  return Object.entries(wanted).every(([name, accepted]) => {
    const value = values?.get(name);
    if (value === undefined || value === null) return false;
    // A multi-select property holds several values; one accepted value is enough.
    return Array.isArray(value)
      ? value.some((item) => accepted.includes(item))
      : accepted.includes(value);
  });
}

/** One read per key: every glob of an owner shares its listings. */
function memoized<T>(reads: Map<string, T>, key: string, read: () => T): T {
  let found = reads.get(key);
  if (found === undefined) {
    found = read();
    reads.set(key, found);
  }
  return found;
}

/** Why a listing could not be used: its error, or what the 404 of its (last) request means. */
function failure(
  result: Exclude<ReadResult<unknown>, { kind: "found" }>,
  path: string,
  absent: string,
): ChangeError {
  return result.kind === "error" ? result.error : changeError(absent, "GET", path, 404);
}

/**
 * Expands repository selectors against live state and merges, per repository, every entry that
 * selects it by the one merge policy: the defaults once at the bottom, then glob entries in file
 * order, then named entries in file order, each with its profiles before its own keys — so a named
 * entry refines what a glob set. A glob with `where: {properties}` also needs the organization's
 * custom property values (one listing per organization, shared by its globs).
 */
export async function expandRepositories(
  state: Pick<DesiredState, "defaults" | "repositories">,
  readers: ReadonlyMap<string, ResourceReader>,
  /** Owners (by `ownerKey`) whose globs are matched against these repositories only, read one by one. */
  lookUp: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<Expansion> {
  const slots = new Map<
    string,
    { target: string; owner: string; name: string; entries: RepositoryEntry[] }
  >();
  const errors: Expansion["errors"] = [];
  const repoListings = new Map<string, ReturnType<typeof listOwnerRepos>>();
  const propertyListings = new Map<string, ReturnType<typeof listOwnerProperties>>();
  const lookUps = new Map<string, ReturnType<typeof lookUpRepos>>();
  const needsProperties = new Set(
    state.repositories
      .filter((entry) => entry.selector.kind === "glob" && entry.selector.properties)
      .map((entry) => ownerKey(entry.target, entry.selector.owner)),
  );
  const slot = (target: string, owner: string, name: string) => {
    const key = `${ownerKey(target, owner)}/${name.toLowerCase()}`;
    let found = slots.get(key);
    if (!found) {
      found = { target, owner, name, entries: [] };
      slots.set(key, found);
    }
    return found;
  };
  const globs = state.repositories.filter((entry) => entry.selector.kind === "glob");
  const listed = await Promise.all(
    globs.map(async (entry) => {
      const reader = readers.get(entry.target);
      if (!reader) throw new Error(`no reader for target ${entry.target}`);
      const owner = entry.selector.owner;
      const key = ownerKey(entry.target, owner);
      const wanted = entry.selector.kind === "glob" ? entry.selector.properties : undefined;
      const names = lookUp.get(key);
      if (names !== undefined) {
        const found = await memoized(lookUps, key, () =>
          lookUpRepos(reader, owner, names, needsProperties.has(key)),
        );
        return {
          repos: found.repos,
          properties: wanted === undefined ? undefined : found.properties,
        };
      }
      const [repos, properties] = await Promise.all([
        memoized(repoListings, key, () => listOwnerRepos(reader, owner)),
        wanted === undefined
          ? undefined
          : memoized(propertyListings, key, () => listOwnerProperties(reader, owner)),
      ]);
      return { repos, properties };
    }),
  );
  globs.forEach((entry, index) => {
    const selector = entry.selector;
    if (selector.kind !== "glob") return;
    const { repos, properties } = listed[index]!;
    if (repos.kind !== "found") {
      // Neither /orgs/{owner}/repos nor, after it, /users/{owner}/repos found the owner.
      errors.push({
        entry,
        error: failure(
          repos,
          ownerReposPath(selector.owner),
          `account ${selector.owner} was not found`,
        ),
      });
      return;
    }
    if (properties !== undefined && properties.kind !== "found") {
      const absent = `${selector.owner} has no custom properties: it is not an organization (or the token cannot see it)`;
      errors.push({ entry, error: failure(properties, propertiesPath(selector.owner), absent) });
      return;
    }
    const values = properties?.kind === "found" ? properties.data : undefined;
    for (const repo of repos.data) {
      // Archived repositories are read-only upstream: protections and hooks cannot be changed there.
      if (repo.archived) continue;
      const owner = repo.owner?.login ?? selector.owner;
      if (!selectsRepository(selector, `${owner}/${repo.name}`)) continue;
      const wanted = selector.properties;
      if (
        wanted !== undefined &&
        !matchesProperties(wanted, values?.get(repo.name.toLowerCase()))
      ) {
        continue;
      }
      slot(entry.target, owner, repo.name).entries.push(entry);
    }
  });
  for (const entry of state.repositories) {
    if (entry.selector.kind !== "name") continue;
    slot(entry.target, entry.selector.owner, entry.selector.repo).entries.push(entry);
  }
  const repos = [...slots.values()].map((repo) => ({
    ...repo,
    settings: settingsOf(state.defaults, repo.entries),
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
