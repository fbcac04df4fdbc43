import type { ResourceReader } from "../../resources/context.js";
import { repoPath, type RepoRef } from "../../resources/context.js";
import {
  failedAt,
  type RepositoryGraphqlRead,
  type RestAnswers,
  type Variables,
} from "../../resources/graphql-read.js";
import {
  LIFECYCLE_KIND,
  LIFECYCLE_KINDS,
  REPOSITORY_KINDS,
  SCOPED_KINDS,
} from "../../resources/index.js";
import { ORGANIZATION_SIDE_MINIMUM } from "../../resources/organization-side.js";
import type { ScopedDesired } from "../expand.js";
import { locatingReads } from "../lifecycle.js";
import { PageReader } from "./pages.js";
import { complexityOf, packGitlab, projectField } from "./gitlab-query.js";
import { type Dialect, pack, pointsOf, type QueryPart } from "./query.js";
import { BulkReader } from "./reader.js";
import { runParts } from "./runner.js";

/**
 * Which repositories are read in bulk over GraphQL, in which batches, and the one reader per target
 * that answers their kinds' reads from the batches' answers. `rest` reads everything over REST;
 * `graphql` reads every repository whose kinds have a GraphQL read in bulk; `auto` does so for a
 * target with at least AUTO_MINIMUM such repositories — many repositories of one target, where
 * aliasing them into queries saves budget; a handful are read as cheaply, and more plainly, over
 * REST. GitLab projects likewise, over GitLab's GraphQL API within its complexity limit
 * (./gitlab-query.ts).
 */

export const READS_MODES = ["auto", "rest", "graphql"] as const;
export type ReadsMode = (typeof READS_MODES)[number];

/**
 * How repositories are read when nothing says: the one place this default is declared, for the
 * CLI's --reads, the library's `reads`, the Action's `reads` input and the engine alike.
 */
export const DEFAULT_READS: ReadsMode = "auto";

/** A batch's worth: the fewest repositories of a target `auto` reads over GraphQL. */
export const AUTO_MINIMUM = 25;

interface KindRead {
  name: string;
  graphql: RepositoryGraphqlRead;
  value: unknown;
}

interface BulkRepository {
  repo: RepoRef;
  kinds: KindRead[];
}

/** Throws away what `select` declares: it only tells whether a value is read over GraphQL. */
const probe: Variables = { add: () => "$probe" };

/**
 * The bulk reads of a repository's or a GitLab project's kinds. A project named by its numeric id
 * is read over REST: GitLab's `project(fullPath:)` takes a path.
 */
function kindReads(repo: RepoRef, desired: ScopedDesired): KindRead[] {
  if (desired.scope === "project" && repo.owner === "") return [];
  const reads: KindRead[] = [];
  for (const kind of SCOPED_KINDS[desired.scope]) {
    const graphql = kind.part.graphql;
    const value = desired.settings[kind.part.setting.key];
    if (graphql === undefined || value === undefined) continue;
    if (graphql.select({ repo, value, variables: probe }) === undefined) continue;
    reads.push({ name: kind.name, graphql, value });
  }
  // GitLab projects are located over REST: GraphQL's Project is not the REST answer the
  // lifecycle kind reads (docs/scale.md).
  const locating = desired.scope === "repository" ? locatingRead(repo, desired) : undefined;
  if (locating !== undefined) reads.push(locating);
  return reads;
}

/**
 * The read that locates a named repository whose settings are not configured (no listing found it):
 * the same `GET /repos/{owner}/{repo}` the lifecycle kind reads, answered by its GraphQL read of a
 * value that writes nothing.
 */
function locatingRead(repo: RepoRef, desired: ScopedDesired): KindRead | undefined {
  const graphql = LIFECYCLE_KIND?.part.graphql;
  if (LIFECYCLE_KIND === undefined || graphql === undefined) return undefined;
  if (locatingReads(desired) === 0 || desired.archived !== undefined) return undefined;
  const value = {};
  if (graphql.select({ repo, value, variables: probe }) === undefined) return undefined;
  return { name: LIFECYCLE_KIND.name, graphql, value };
}

function partOf(repo: RepoRef, read: KindRead, dialect: Dialect): QueryPart {
  return {
    ...(read.graphql.fragments ? { fragments: read.graphql.fragments } : {}),
    field: (alias, variables) => {
      if (dialect === "gitlab") {
        const fields = read.graphql.select({ repo, value: read.value, variables }) ?? "";
        return projectField(alias, `${repo.owner}/${repo.name}`, fields, (type, value) =>
          variables.add(type, value),
        );
      }
      const owner = variables.add("String!", repo.owner);
      const name = variables.add("String!", repo.name);
      const fields = read.graphql.select({ repo, value: read.value, variables }) ?? "";
      return `${alias}: repository(owner: ${owner}, name: ${name}) { ${fields} }`;
    },
  };
}

/** Repositories read by one query: their answers are held while their kinds plan. */
export class Batch {
  readonly target: string;
  readonly #reader: BulkReader;
  readonly #repos: readonly BulkRepository[];
  readonly dialect: Dialect;
  #ready: Promise<void> | undefined;
  #open: number;
  readonly #held: RestAnswers[] = [];
  readonly #missing: string[] = [];

  constructor(
    reader: BulkReader,
    repos: readonly BulkRepository[],
    tasks: number,
    dialect: Dialect = "github",
  ) {
    this.target = reader.target;
    this.#reader = reader;
    this.#repos = repos;
    this.#open = tasks;
    this.dialect = dialect;
  }

  get parts(): QueryPart[] {
    return this.#repos.flatMap(({ repo, kinds }) =>
      kinds.map((read) => partOf(repo, read, this.dialect)),
    );
  }

  /**
   * What its query is predicted to cost: GitHub's points, or the complexity GitLab will score it
   * (which GitLab limits per query, not per hour).
   */
  get points(): number {
    return this.dialect === "gitlab" ? complexityOf(this.parts) : pointsOf(this.parts);
  }

  /** Reads the batch once, whichever of its tasks asks first. */
  ready(): Promise<void> {
    this.#ready ??= this.#read();
    return this.#ready;
  }

  /** One of its tasks has planned; after the last, its answers are let go. */
  done(): void {
    this.#open--;
    if (this.#open > 0) return;
    for (const answers of this.#held) this.#reader.forget(answers);
    for (const path of this.#missing) this.#reader.forgetMissing(path);
  }

  async #read(): Promise<void> {
    const reads = this.#repos.flatMap(({ repo, kinds }) => kinds.map((read) => ({ repo, read })));
    const outcomes = await runParts(this.#reader.client, this.parts, this.dialect);
    const pages = new PageReader(this.#reader.client, this.dialect);
    await Promise.all(
      outcomes.map(async (outcome, index) => {
        const { repo, read } = reads[index]!;
        if (outcome.kind === "missing") {
          const path = repoPath(repo);
          this.#reader.holdMissing(path);
          this.#missing.push(path);
        } else if (outcome.kind === "data") {
          const answers = await read.graphql.answer({
            repo,
            value: read.value,
            data: outcome.data,
            failed: failedAt(outcome.errors),
            pages,
          });
          this.#reader.hold(answers);
          this.#held.push(answers);
        }
      }),
    );
    if (pages.failure !== undefined) throw pages.failure;
  }
}

/**
 * Where a kind reads many repositories of one organization from the organization's side
 * (../../resources/organization-side.ts), the target's reader answers their reads from that one
 * read, made when the first of them is asked for.
 */
function deferOrganizationSide(
  repos: readonly ScopedDesired[],
  readers: ReadonlyMap<string, ResourceReader>,
  bulkReader: (target: string) => BulkReader | undefined,
): void {
  for (const kind of REPOSITORY_KINDS) {
    const side = kind.repository.organizationSide;
    if (side === undefined) continue;
    const groups = new Map<string, { target: string; org: string; repos: RepoRef[] }>();
    for (const repo of repos) {
      if (repo.scope !== "repository") continue;
      const value = repo.settings[kind.repository.setting.key];
      if (value === undefined || !side.wants(value)) continue;
      const id = `${repo.target}\n${repo.owner.toLowerCase()}`;
      const group = groups.get(id) ?? { target: repo.target, org: repo.owner, repos: [] };
      group.repos.push({ owner: repo.owner, name: repo.name });
      groups.set(id, group);
    }
    for (const group of groups.values()) {
      if (group.repos.length < ORGANIZATION_SIDE_MINIMUM) continue;
      const plain = readers.get(group.target);
      const reader = bulkReader(group.target);
      if (plain === undefined || reader === undefined) continue;
      const keys = group.repos.flatMap((repo) => [...side.keys(repo)]);
      reader.defer(keys, () => side.read(plain, group.org, group.repos));
    }
  }
}

/**
 * The targets whose listed GitLab projects are located by their listing: every one with `graphql`,
 * those with AUTO_MINIMUM listed projects or more with `auto`.
 */
function listedTargets(mode: ReadsMode, repos: readonly ScopedDesired[]): Set<string> {
  const counts = new Map<string, number>();
  if (mode === "rest") return new Set();
  for (const repo of repos) {
    if (repo.scope !== "project" || repo.listed === undefined) continue;
    counts.set(repo.target, (counts.get(repo.target) ?? 0) + 1);
  }
  return new Set(
    [...counts].filter(([, count]) => mode === "graphql" || count >= AUTO_MINIMUM).map(([t]) => t),
  );
}

export interface BulkPlan {
  /** The reader each target plans with: a BulkReader where any repository is read in bulk. */
  readers: ReadonlyMap<string, ResourceReader>;
  /** The batch of a repository of the work (by its index), or undefined when it is read over REST. */
  batchOf(index: number): Batch | undefined;
  /** The kinds of a repository of the work (by its index) read in bulk. */
  bulkKinds(index: number): ReadonlySet<string>;
  /**
   * Whether a place of the work (by its index) is located by what its glob's listing answered
   * (`listed`): GitLab's group projects listing answers `GET /projects/:id` for the project
   * settings kind in bulk reads (../project-listing.ts).
   */
  locatedByListing(index: number): boolean;
  batches: readonly Batch[];
}

/**
 * Decides the reads of the work's repositories and forms their batches. `tasksOf` counts the plan
 * tasks of a repository, which its batch waits for before letting its answers go.
 */
export function planReads(
  mode: ReadsMode,
  repos: readonly ScopedDesired[],
  readers: ReadonlyMap<string, ResourceReader>,
  tasksOf: (repo: ScopedDesired) => number,
): BulkPlan {
  const byIndex = new Map<number, Batch>();
  const kindsByIndex = new Map<number, Set<string>>();
  const batches: Batch[] = [];
  const bulkReaders = new Map(readers);
  const bulkReader = (target: string): BulkReader | undefined => {
    const known = bulkReaders.get(target);
    if (known instanceof BulkReader) return known;
    const plain = readers.get(target);
    if (plain === undefined) return undefined;
    const reader = new BulkReader(plain);
    bulkReaders.set(target, reader);
    return reader;
  };
  if (mode !== "rest") {
    const byTarget = new Map<string, Array<{ index: number; bulk: BulkRepository }>>();
    for (const [index, repo] of repos.entries()) {
      const ref = { owner: repo.owner, name: repo.name };
      const kinds = kindReads(ref, repo);
      if (kinds.length === 0) continue;
      const list = byTarget.get(repo.target) ?? [];
      list.push({ index, bulk: { repo: ref, kinds } });
      byTarget.set(repo.target, list);
    }
    for (const [target, list] of byTarget) {
      if (mode === "auto" && list.length < AUTO_MINIMUM) continue;
      const reader = bulkReader(target);
      if (reader === undefined) continue;
      // One target is one service: its places are all repositories, or all GitLab projects.
      const dialect: Dialect = repos[list[0]!.index]!.scope === "project" ? "gitlab" : "github";
      const partsOf = ({ bulk }: { bulk: BulkRepository }) =>
        bulk.kinds.map((read) => partOf(bulk.repo, read, dialect));
      const packed = dialect === "gitlab" ? packGitlab(list, partsOf) : pack(list, partsOf);
      for (const members of packed) {
        const tasks = members.reduce((sum, { index }) => sum + tasksOf(repos[index]!), 0);
        const batch = new Batch(
          reader,
          members.map(({ bulk }) => bulk),
          tasks,
          dialect,
        );
        batches.push(batch);
        for (const { index, bulk } of members) {
          byIndex.set(index, batch);
          kindsByIndex.set(index, new Set(bulk.kinds.map((read) => read.name)));
        }
      }
    }
  }
  if (mode !== "rest") deferOrganizationSide(repos, readers, bulkReader);
  const listedBy = listedTargets(mode, repos);
  const locatedByListing = (index: number) => {
    const repo = repos[index]!;
    return repo.listed !== undefined && listedBy.has(repo.target);
  };
  const lifecycle = LIFECYCLE_KINDS.project?.name;
  return {
    readers: bulkReaders,
    batchOf: (index) => byIndex.get(index),
    bulkKinds: (index) => {
      const kinds = new Set(kindsByIndex.get(index));
      if (lifecycle !== undefined && locatedByListing(index)) kinds.add(lifecycle);
      return kinds;
    },
    locatedByListing,
    batches,
  };
}
