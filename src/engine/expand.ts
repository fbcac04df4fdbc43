import * as z from "zod";
import { selectsRepository } from "../config/glob.js";
import { mergeLayers } from "../config/merge.js";
import type { DesiredState, RepositoryEntry } from "../config/model.js";
import type { ChangeError } from "../core/plan.js";
import type { PageShape } from "../forge/client.js";
import {
  changeError,
  type ReadResult,
  type ResourceReader,
  toChangeError,
} from "../resources/context.js";
import { LIFECYCLE_KIND } from "../resources/index.js";

/** The desired state of one repository after globs are expanded and entries layered. */
export interface RepoDesired {
  target: string;
  owner: string;
  name: string;
  /** By settings key, as every entry that selects the repository makes it together. */
  settings: Record<string, unknown>;
  /** The entries that select it, in the order they are merged: globs, then named entries. */
  entries: RepositoryEntry[];
  /** Whether it is archived, as a glob's listing said (a named repository is located by reading it). */
  archived?: boolean;
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

const propertiesPath = (owner: string) => `/orgs/${encodeURIComponent(owner)}/properties/values`;

/** A read that either found what it read or failed: "absent" has been given its meaning. */
type Listing<T> = Exclude<ReadResult<T>, { kind: "absent" }>;

/** Where a user's repositories are listed for one credential, and how the pages hold them. */
interface UserListing {
  path: string;
  query?: Record<string, string>;
  pages?: PageShape;
}

/**
 * The listing that shows the credential a user's repositories, private ones included where it may
 * see them. `GET /users/{username}/repos` lists only public repositories, even to the user's own
 * token ("Lists public repositories for the specified user", the operation's description in
 * `@octokit/openapi`; octokit/octokit.js#968): the user's token lists them all with `GET
 * /user/repos`, an App installation (`login` undefined) those it covers with `GET
 * /installation/repositories`, and any other token can list no more than the public ones.
 */
function userListing(owner: string, login: string | undefined): UserListing {
  if (login === undefined) {
    return { path: "/installation/repositories", pages: { itemsUnder: "repositories" } };
  }
  if (login.toLowerCase() === owner.toLowerCase()) {
    return { path: "/user/repos", query: { affiliation: "owner" } };
  }
  return { path: `/users/${encodeURIComponent(owner)}/repos`, query: { type: "owner" } };
}

/**
 * The login of the user whose token a reader holds; undefined for an App installation: forgeplan's
 * own App credential, or a token `GET /user` will not name (a workflow's GITHUB_TOKEN).
 */
async function readerLogin(reader: ResourceReader): Promise<Listing<string | undefined>> {
  if (reader.client.credential !== undefined) return { kind: "found", data: undefined };
  try {
    return { kind: "found", data: await reader.client.login() };
  } catch (error) {
    return { kind: "error", error: toChangeError(error, "GET", "/user") };
  }
}

/** The repositories `owner` owns: an installation lists its own account's, whoever a glob is over. */
function ownedBy(repos: readonly Listed[], owner: string): Listed[] {
  const wanted = owner.toLowerCase();
  return repos.filter((repo) => (repo.owner?.login ?? owner).toLowerCase() === wanted);
}

/** Lists an account's repositories: as an organization first, then as a user (see `userListing`). */
async function listOwnerRepos(
  reader: ResourceReader,
  owner: string,
  loginOf: () => Promise<Listing<string | undefined>>,
): Promise<Listing<Listed[]>> {
  const asOrg = await reader.list(
    `/orgs/${encodeURIComponent(owner)}/repos`,
    { type: "all" },
    listedRepo,
  );
  if (asOrg.kind !== "absent") return asOrg;
  const login = await loginOf();
  if (login.kind === "error") return login;
  const listing = userListing(owner, login.data);
  const listed = await reader.list(listing.path, listing.query, listedRepo, listing.pages);
  // Neither /orgs/{owner}/repos nor, after it, the user listing knows the owner.
  if (listed.kind === "absent") {
    return {
      kind: "error",
      error: changeError(`account ${owner} was not found`, "GET", listing.path, 404),
    };
  }
  return listed.kind === "found" ? { kind: "found", data: ownedBy(listed.data, owner) } : listed;
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
): Promise<{ repos: Listing<Listed[]>; properties: ReadResult<Map<string, Properties>> }> {
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

/** One read per key: every glob of an owner shares its listings, every owner a reader's login. */
function memoized<K, T>(reads: Map<K, T>, key: K, read: () => T): T {
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
    { target: string; owner: string; name: string; entries: RepositoryEntry[]; archived?: boolean }
  >();
  const errors: Expansion["errors"] = [];
  const repoListings = new Map<string, ReturnType<typeof listOwnerRepos>>();
  const propertyListings = new Map<string, ReturnType<typeof listOwnerProperties>>();
  const logins = new Map<ResourceReader, ReturnType<typeof readerLogin>>();
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
        memoized(repoListings, key, () =>
          listOwnerRepos(reader, owner, () => memoized(logins, reader, () => readerLogin(reader))),
        ),
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
    if (repos.kind === "error") {
      errors.push({ entry, error: repos.error });
      return;
    }
    if (properties !== undefined && properties.kind !== "found") {
      const absent = `${selector.owner} has no custom properties: it is not an organization (or the token cannot see it)`;
      errors.push({ entry, error: failure(properties, propertiesPath(selector.owner), absent) });
      return;
    }
    const values = properties?.kind === "found" ? properties.data : undefined;
    const withArchived = includesArchived(entry);
    for (const repo of repos.data) {
      // Archived repositories are read-only upstream: a glob selects them only when its entry says
      // what they get (archived_repositories), and then they are planned by that policy.
      if (repo.archived && !withArchived) continue;
      const owner = repo.owner?.login ?? selector.owner;
      if (!selectsRepository(selector, `${owner}/${repo.name}`)) continue;
      const wanted = selector.properties;
      if (
        wanted !== undefined &&
        !matchesProperties(wanted, values?.get(repo.name.toLowerCase()))
      ) {
        continue;
      }
      const selected = slot(entry.target, owner, repo.name);
      selected.entries.push(entry);
      selected.archived = repo.archived === true;
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

/** Whether a glob entry asks for archived repositories too: it says what they get. */
function includesArchived(entry: RepositoryEntry): boolean {
  if (LIFECYCLE_KIND === undefined) return false;
  const value = entry.settings[LIFECYCLE_KIND.repository.setting.key];
  return LIFECYCLE_KIND.lifecycle.archivedPolicy(value).explicit;
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
