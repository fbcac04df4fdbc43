import * as z from "zod";
import type { RepoRef } from "./context.js";

/**
 * A kind's bulk read over GitHub's GraphQL API, beside its REST read: the fields it reads of one
 * repository, and how their answer stands for the REST answers its planner reads. GitLab's
 * project kinds read the same way over GitLab's GraphQL API (`project(fullPath:)` for
 * `repository(owner:, name:)`, its limits for GitHub's: ../engine/bulk/gitlab-query.ts). The engine aliases
 * many repositories into one query (`r0k1: repository(owner: $o0, name: $n0) { …the kind's
 * fields… }`), then hands each kind its part of the answer; the REST answers it makes are what the
 * planner's reads are answered with, so the planner is the same code whichever way its state was
 * read and both ways plan alike by construction. A path the kind leaves unanswered is read over REST.
 *
 * A kind answers only what it can answer exactly as REST would. Whatever GraphQL cannot show —
 * a field GitHub's published schema lacks, a value outside its enums, a wildcard protection rule, an
 * answer it cannot trust — is left to REST for that repository: never guessed. The one exception
 * is a partial answer (`RestAnswers.listed(…, { partial: true })`): it shows exactly what a plan
 * without changes compares, but not what a write would name (an id, a custom role). A kind's plan
 * from one is kept only when it changes nothing; otherwise the engine plans that kind again over
 * REST (../engine/lifecycle.ts), so a write is always planned from REST's answer.
 */
export interface RepositoryGraphqlRead<V = unknown> {
  /**
   * Fragments the fields use, written once per query: `fragment RuleFields on BranchProtectionRule
   * {…}`. Constant text: nothing of a configuration or a repository is ever written into a query.
   */
  fragments?: string;
  /**
   * Whether its answers may be partial (`RestAnswers.listed(…, { partial: true })`): the engine
   * then plans the kind through a reader that notes them (ResourceReader.onePlan).
   */
  partial?: true;
  /**
   * The fields to read of one repository for this value, or undefined when it is read over REST.
   * Every name or other value from the configuration is passed as a variable (`variables.add`);
   * connections ask for at most 100 (GitHub's limit).
   */
  select(input: { repo: RepoRef; value: V; variables: Variables }): string | undefined;
  /**
   * The REST answers the repository's part of the answer stands for (`data` is what the fields
   * selected, unchecked: check its shape). Connections with more pages are completed with `pages`.
   */
  answer(input: {
    repo: RepoRef;
    value: V;
    data: unknown;
    /**
     * Whether an error lies at or under a path of `data` (`["rulesets", "nodes", 2]`): a field
     * that failed reads null, which must not be taken for the service's null.
     */
    failed: (path: ReadonlyArray<string | number>) => boolean;
    pages: Pages;
  }): Promise<RestAnswers>;
}

/** The variables of one query: each value travels as a variable, never in the query's text. */
export interface Variables {
  /** Declares a variable of GraphQL type `type` (`String!`) holding `value`; returns `$name`. */
  add(type: string, value: unknown): string;
}

/** One page of a connection as the kinds select it: `pageInfo { hasNextPage endCursor } nodes`. */
export interface ConnectionPage {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: unknown[];
}

/** The next pages of a connection that had more than one. */
export interface PageRequest {
  /**
   * What holds the connection: a GitHub repository by name, any GitHub object by its node id and
   * type, or a GitLab project by its full path.
   */
  on: { repository: RepoRef } | { node: string; type: string } | { project: string };
  /** The connection field, with constant arguments besides `first` and `after`: `rulesets(includeParents: false)`. */
  field: string;
  /** What to read of each node (each edge, with `edges`); `pageInfo` is added. */
  nodes: string;
  /** Read the connection's edges, not its nodes: what an edge carries (a collaborator's permission). */
  edges?: boolean;
  /** The fragments `nodes` spreads, as `RepositoryGraphqlRead.fragments`. */
  fragments?: string;
  after: string;
}

/** The nodes of a connection's further pages, and which of them hold an error (nulls not to take). */
export interface MoreNodes {
  nodes: unknown[];
  failed: ReadonlySet<number>;
}

export interface Pages {
  /**
   * Every node after `after`, read 100 at a time by follow-up queries shared with other
   * repositories'; undefined when a page could not be read (the kind leaves that answer to REST).
   */
  rest(request: PageRequest): Promise<MoreNodes | undefined>;
}

export type Query = Record<string, string | number>;

/** What a REST read would have answered: a body, a 404 with the service's words, or a whole list. */
export type RestAnswer =
  | { kind: "found"; body: unknown }
  | { kind: "absent"; detail: string }
  | { kind: "listed"; items: unknown[]; partial?: true };

/**
 * REST answers by request, keyed as the reader asks: a GET by path and query, a listing by path and
 * query (every page's items together).
 */
export class RestAnswers {
  readonly byRequest = new Map<string, RestAnswer>();

  found(path: string, body: unknown, query?: Query): void {
    this.byRequest.set(getKey(path, query), { kind: "found", body });
  }

  absent(path: string, detail: string, query?: Query): void {
    this.byRequest.set(getKey(path, query), { kind: "absent", detail });
  }

  /**
   * Every item a listing would answer. `partial`: the items show what a plan without changes
   * compares, not every field REST's would (see above).
   */
  listed(path: string, items: unknown[], query?: Query, how: { partial?: boolean } = {}): void {
    this.byRequest.set(listKey(path, query), {
      kind: "listed",
      items,
      ...(how.partial === true ? { partial: true as const } : {}),
    });
  }
}

export function getKey(path: string, query: Query | undefined): string {
  return `GET ${path} ${JSON.stringify(query ?? {})}`;
}

export function listKey(path: string, query: Query | undefined): string {
  return `LIST ${path} ${JSON.stringify(query ?? {})}`;
}

/** The selection of a connection's page, as `ConnectionPage` reads it (its edges, with `edges`). */
export function pageOf(nodes: string, edges = false): string {
  return `pageInfo { hasNextPage endCursor } ${edges ? "edges" : "nodes"} { ${nodes} }`;
}

/** `failed` for the errors at these paths (relative to the part's alias). */
export function failedAt(
  errors: ReadonlyArray<ReadonlyArray<string | number>>,
): (path: ReadonlyArray<string | number>) => boolean {
  return (path) => errors.some((error) => path.every((step, index) => error[index] === step));
}

/**
 * Every node of a connection whose first page a query read: that page's nodes, then the rest from
 * follow-up queries, with the indexes of nodes that hold an error (`firstFailed` says which of the
 * first page's do); undefined when a further page could not be read.
 */
export async function allNodes(
  first: ConnectionPage,
  firstFailed: (index: number) => boolean,
  more: (after: string) => Promise<MoreNodes | undefined>,
): Promise<MoreNodes | undefined> {
  const failed = new Set([...first.nodes.keys()].filter(firstFailed));
  if (!first.pageInfo.hasNextPage || first.pageInfo.endCursor === null) {
    return { nodes: first.nodes, failed };
  }
  const rest = await more(first.pageInfo.endCursor);
  if (rest === undefined) return undefined;
  for (const index of rest.failed) failed.add(first.nodes.length + index);
  return { nodes: [...first.nodes, ...rest.nodes], failed };
}

const connectionPage = (list: "nodes" | "edges") =>
  z.looseObject({
    pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
    [list]: z.array(z.unknown()),
  });

/**
 * Every node (or edge) of a repository's connection `field` whose first page its part selected with
 * `pageOf`, the rest read by follow-up queries (`connection`: the field with its constant
 * arguments, what to read of each node); undefined when the connection cannot be read whole.
 */
export function repositoryConnection(
  part: ConnectionPart,
  field: string,
  connection: Omit<PageRequest, "on" | "after">,
): Promise<MoreNodes | undefined> {
  return connectionOf(part, field, connection, { repository: part.repo });
}

/**
 * Likewise for a GitLab project's connection (`project(fullPath:)`): the project is named by its
 * full path, the namespace's and its own (`repo.owner` and `repo.name`).
 */
export function projectConnection(
  part: ConnectionPart,
  field: string,
  connection: Omit<PageRequest, "on" | "after">,
): Promise<MoreNodes | undefined> {
  return connectionOf(part, field, connection, {
    project: `${part.repo.owner}/${part.repo.name}`,
  });
}

/**
 * The first page a GitLab listing asks: few projects have more, and GitLab scores a connection by
 * its page size.
 */
const GITLAB_FIRST_PAGE = 20;

/**
 * A GitLab project's connection read whole as one REST listing: `connection` (the field and its
 * constant arguments, `labels(includeAncestorGroups: true)`) is selected with its first page when
 * `reads` says the value is read so; its nodes, each checked against `node`, become the listing
 * of `path` and `query` (`listed` makes REST's items of them, in REST's order). A node with an
 * error or of another shape, or a page that cannot be read, leaves the listing to REST.
 * `partial`: the items show what a plan without changes compares, not every field REST's would
 * (see above).
 */
export function projectListing<N, V>(spec: {
  connection: string;
  nodes: string;
  node: z.ZodType<N>;
  path: (repo: RepoRef) => string;
  /** The query of the REST listing it stands for, as the planner reads it. */
  query?: Query;
  listed: (nodes: N[]) => unknown[];
  reads?: (value: V) => boolean;
  partial?: true;
}): RepositoryGraphqlRead<V> {
  const field = /^\w+/.exec(spec.connection)![0];
  const open = spec.connection.endsWith(")")
    ? `${spec.connection.slice(0, -1)}, `
    : `${spec.connection}(`;
  return {
    ...(spec.partial ? { partial: true as const } : {}),
    select: ({ value }) =>
      spec.reads === undefined || spec.reads(value)
        ? `${open}first: ${GITLAB_FIRST_PAGE}) { ${pageOf(spec.nodes)} }`
        : undefined,
    answer: async (part) => {
      const answers = new RestAnswers();
      const all = await projectConnection(part, field, {
        field: spec.connection,
        nodes: spec.nodes,
      });
      const parsed = z.array(spec.node).safeParse(all?.nodes);
      if (all === undefined || all.failed.size > 0 || !parsed.success) return answers;
      answers.listed(spec.path(part.repo), spec.listed(parsed.data), spec.query, {
        partial: spec.partial === true,
      });
      return answers;
    },
  };
}

interface ConnectionPart {
  repo: RepoRef;
  data: unknown;
  failed: (path: ReadonlyArray<string | number>) => boolean;
  pages: Pages;
}

async function connectionOf(
  part: ConnectionPart,
  field: string,
  connection: Omit<PageRequest, "on" | "after">,
  on: PageRequest["on"],
): Promise<MoreNodes | undefined> {
  const list = connection.edges ? "edges" : "nodes";
  const read = z.looseObject({ [field]: connectionPage(list) }).safeParse(part.data);
  if (!read.success || part.failed([field, "pageInfo"])) return undefined;
  const page = read.data[field] as { pageInfo: ConnectionPage["pageInfo"] } & Record<
    string,
    unknown[]
  >;
  return allNodes(
    { pageInfo: page.pageInfo, nodes: page[list]! },
    (index) => part.failed([field, list, index]),
    (after) => part.pages.rest({ on, ...connection, after }),
  );
}
