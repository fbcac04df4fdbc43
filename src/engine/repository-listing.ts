import * as z from "zod";
import type { ScopedEntry } from "../config/model.js";
import type { PageShape } from "../forge/client.js";
import {
  changeError,
  type ReadResult,
  type ResourceReader,
  toChangeError,
} from "../resources/context.js";
import { failure, type GlobLister, type Listing, memoized, ownerKey } from "./listing.js";

/**
 * How a glob over an owner's repositories is listed on GitHub: an organization's repositories, else
 * a user's (as the credential may see them), filtered by custom property values where the entry has
 * `where`; or, for a plan that needs only a few of them (`lookUp`), those repositories read one by one.
 */

const listedRepo = {
  name: "repositories",
  schema: z.object({
    name: z.string(),
    archived: z.boolean().optional(),
    owner: z.object({ login: z.string().optional() }).nullish(),
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

const propertiesPath = (owner: string) => `/orgs/${encodeURIComponent(owner)}/properties/values`;

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

/**
 * The lister of repository globs: each owner's repositories listed once (and its custom property
 * values once, for the globs with `where`), or, for owners in `lookUp`, only those repositories read.
 */
export function repositoryLister(
  globs: readonly ScopedEntry[],
  readers: ReadonlyMap<string, ResourceReader>,
  lookUp: ReadonlyMap<string, readonly string[]>,
): GlobLister {
  const repoListings = new Map<string, ReturnType<typeof listOwnerRepos>>();
  const propertyListings = new Map<string, ReturnType<typeof listOwnerProperties>>();
  const logins = new Map<ResourceReader, ReturnType<typeof readerLogin>>();
  const lookUps = new Map<string, ReturnType<typeof lookUpRepos>>();
  const needsProperties = new Set(
    globs
      .filter((entry) => entry.selector.kind === "glob" && entry.selector.properties)
      .map((entry) => ownerKey(entry.target, entry.selector.owner)),
  );
  return async (entry, reader) => {
    const selector = entry.selector;
    if (selector.kind !== "glob") return { kind: "found", data: [] };
    const owner = selector.owner;
    const key = ownerKey(entry.target, owner);
    const wanted = selector.properties;
    const names = lookUp.get(key);
    let repos: Listing<Listed[]>;
    let properties: ReadResult<Map<string, Properties>> | undefined;
    if (names !== undefined) {
      const found = await memoized(lookUps, key, () =>
        lookUpRepos(reader, owner, names, needsProperties.has(key)),
      );
      repos = found.repos;
      properties = wanted === undefined ? undefined : found.properties;
    } else {
      [repos, properties] = await Promise.all([
        memoized(repoListings, key, () =>
          listOwnerRepos(reader, owner, () => memoized(logins, reader, () => readerLogin(reader))),
        ),
        wanted === undefined
          ? undefined
          : memoized(propertyListings, key, () => listOwnerProperties(reader, owner)),
      ]);
    }
    if (repos.kind === "error") return repos;
    if (properties !== undefined && properties.kind !== "found") {
      const absent = `${owner} has no custom properties: it is not an organization (or the token cannot see it)`;
      return { kind: "error", error: failure(properties, propertiesPath(owner), absent) };
    }
    const values = properties?.kind === "found" ? properties.data : undefined;
    return {
      kind: "found",
      data: repos.data
        .filter(
          (repo) =>
            wanted === undefined || matchesProperties(wanted, values?.get(repo.name.toLowerCase())),
        )
        .map((repo) => ({
          owner: repo.owner?.login ?? owner,
          name: repo.name,
          archived: repo.archived === true,
        })),
    };
  };
}
