import type { ForgeClient } from "../../forge/client.js";
import {
  type MoreNodes,
  type PageRequest,
  type Pages,
  pageOf,
  type Variables,
} from "../../resources/graphql-read.js";
import { packGitlab, projectField } from "./gitlab-query.js";
import { type Dialect, MAX_ITEMS, type QueryPart } from "./query.js";
import { runParts } from "./runner.js";

/**
 * The follow-up pages of connections that held more than their first page, for every repository
 * at once: requests made while answers are converted are gathered and sent together, up to
 * MAX_ITEMS a query, each page under its own alias; a connection with still more pages asks again
 * from its new cursor. A page that cannot be read ends its request with undefined. GitLab's pages
 * (a project's, by full path) are packed by its complexity limit instead.
 */

const PAGE_SIZE = 100;

/** `rulesets(includeParents: false)` with `first` and `after` added to its arguments. */
function paged(field: string, after: string): string {
  const open = field.indexOf("(");
  const args = `first: ${PAGE_SIZE}, after: ${after}`;
  return open === -1 ? `${field}(${args})` : `${field.slice(0, -1)}, ${args})`;
}

function pagePart(request: PageRequest): QueryPart {
  return {
    ...(request.fragments ? { fragments: request.fragments } : {}),
    field: (alias: string, variables: Variables) => {
      const connection = `page: ${paged(request.field, variables.add("String", request.after))} { ${pageOf(request.nodes, request.edges)} }`;
      if ("repository" in request.on) {
        const { owner, name } = request.on.repository;
        return `${alias}: repository(owner: ${variables.add("String!", owner)}, name: ${variables.add("String!", name)}) { ${connection} }`;
      }
      if ("project" in request.on) {
        return projectField(alias, request.on.project, connection, (type, value) =>
          variables.add(type, value),
        );
      }
      return `${alias}: node(id: ${variables.add("ID!", request.on.node)}) { ... on ${request.on.type} { ${connection} } }`;
    },
  };
}

interface Pending {
  request: PageRequest;
  nodes: unknown[];
  failed: Set<number>;
  resolve(more: MoreNodes | undefined): void;
}

function pageIn(
  data: unknown,
  list: "nodes" | "edges",
): { nodes: unknown[]; next: string | undefined } | undefined {
  const page = (data as { page?: unknown } | null)?.page as
    | {
        nodes?: unknown;
        edges?: unknown;
        pageInfo?: { hasNextPage?: unknown; endCursor?: unknown };
      }
    | null
    | undefined;
  const nodes = page?.[list];
  if (!page || !Array.isArray(nodes)) return undefined;
  const more = page.pageInfo?.hasNextPage === true;
  const cursor = page.pageInfo?.endCursor;
  if (more && typeof cursor !== "string") return undefined;
  return { nodes, next: more ? (cursor as string) : undefined };
}

export class PageReader implements Pages {
  readonly #client: ForgeClient;
  readonly #dialect: Dialect;
  #pending: Pending[] = [];
  #scheduled = false;
  /** What ended a follow-up query other than the service's answer (a stop, a wait too long). */
  failure: unknown;

  constructor(client: ForgeClient, dialect: Dialect = "github") {
    this.#client = client;
    this.#dialect = dialect;
  }

  rest(request: PageRequest): Promise<MoreNodes | undefined> {
    return new Promise((resolve) =>
      this.#enqueue({ request, nodes: [], failed: new Set(), resolve }),
    );
  }

  #enqueue(pending: Pending): void {
    this.#pending.push(pending);
    if (this.#scheduled) return;
    this.#scheduled = true;
    // Requests made by every answer converted in this turn go out together.
    setImmediate(() => {
      this.#scheduled = false;
      const queue = this.#pending;
      this.#pending = [];
      if (this.#dialect === "gitlab") {
        // GitLab's limit is each query's complexity (./gitlab-query.ts), not a count of items.
        for (const batch of packGitlab(queue, (pending) => [pagePart(pending.request)])) {
          void this.#send(batch);
        }
        return;
      }
      for (let start = 0; start < queue.length; start += MAX_ITEMS) {
        void this.#send(queue.slice(start, start + MAX_ITEMS));
      }
    });
  }

  async #send(batch: Pending[]): Promise<void> {
    let outcomes;
    try {
      outcomes = await runParts(
        this.#client,
        batch.map((pending) => pagePart(pending.request)),
        this.#dialect,
      );
    } catch (error) {
      // A stop, or a wait beyond the maximum: kept for whoever waits on the answers to throw.
      this.failure ??= error;
      for (const pending of batch) pending.resolve(undefined);
      return;
    }
    for (const [index, pending] of batch.entries()) {
      const outcome = outcomes[index];
      const list = pending.request.edges ? "edges" : "nodes";
      const page = outcome?.kind === "data" ? pageIn(outcome.data, list) : undefined;
      // An error in a node is that node's; one elsewhere in the page leaves nothing to trust.
      const inNodes = (path: ReadonlyArray<string | number>) =>
        path[0] === "page" && path[1] === list && typeof path[2] === "number";
      if (page === undefined || outcome?.kind !== "data" || !outcome.errors.every(inNodes)) {
        pending.resolve(undefined);
        continue;
      }
      const failed = new Set(pending.failed);
      for (const path of outcome.errors) failed.add(pending.nodes.length + (path[2] as number));
      const nodes = [...pending.nodes, ...page.nodes];
      if (page.next === undefined) pending.resolve({ nodes, failed });
      else {
        this.#enqueue({
          ...pending,
          nodes,
          failed,
          request: { ...pending.request, after: page.next },
        });
      }
    }
  }
}
