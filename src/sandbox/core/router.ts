import type { FamilyTypes, Reply, RequestContext } from "./http-support.js";

export interface Route<F extends FamilyTypes = FamilyTypes> {
  method: "GET" | "PUT" | "PATCH" | "POST" | "DELETE";
  /** Segments: literals, `:name` for one segment, `*name` for one or more (branch names hold slashes). */
  pattern: string;
  /** Method syntax: a family's routes stand in a table of any family's (server.ts). */
  handler(ctx: RequestContext<F>): Reply;
  /** `GET /rate_limit` does not count against any budget. */
  free?: boolean;
  /**
   * The service's operation this route serves, `METHOD /path` as the service's description names
   * it: its published request schema checks the body (the family's request rules).
   */
  operation?: string;
  /**
   * Metered by the route itself rather than as a REST request: `graphql` draws on the GraphQL
   * budget, charged by the handler once a query's cost is known (`RequestContext.budget`), and on
   * the secondary limit at GraphQL's points.
   */
  metered?: "graphql";
  /**
   * A POST that only reads: a GraphQL query paced as a REST request (GitLab's), counted among the
   * GraphQL queries and never as a mutation.
   */
  readsOnly?: true;
  /** The HTTP-date of `Last-Modified` for a 200 answer's body, for the operations that send one. */
  lastModified?(body: unknown): string | undefined;
}

interface CompiledRoute<F extends FamilyTypes> extends Route<F> {
  segments: string[];
}

export interface Match<F extends FamilyTypes = FamilyTypes> {
  route: CompiledRoute<F>;
  params: Record<string, string>;
}

function matchSegments(pattern: string[], path: string[], params: Record<string, string>): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern as [string, ...string[]];
  if (head.startsWith("*")) {
    // A rest parameter takes as few segments as lets the remaining pattern match.
    for (let take = 1; take <= path.length - rest.length; take++) {
      if (matchSegments(rest, path.slice(take), params)) {
        params[head.slice(1)] = path.slice(0, take).join("/");
        return true;
      }
    }
    return false;
  }
  const [segment, ...tail] = path;
  if (segment === undefined) return false;
  if (head.startsWith(":")) {
    if (segment === "") return false;
    params[head.slice(1)] = segment;
  } else if (head !== segment) return false;
  return matchSegments(rest, tail, params);
}

/**
 * A route table indexed by the first path segments, so a request is matched against a few routes.
 * `keyDepth` segments make the key (1 for `/repos/…`; 3 for `/api/v4/groups/…`): every pattern's
 * first `keyDepth` segments are literals. Routes are tried in the order given, so a route of a
 * more specific path comes before one whose `*rest` would take it.
 */
export class Router<F extends FamilyTypes = FamilyTypes> {
  readonly #byPrefix = new Map<string, CompiledRoute<F>[]>();

  constructor(
    routes: readonly Route<F>[],
    private readonly keyDepth = 1,
  ) {
    for (const route of routes) {
      const segments = route.pattern.split("/").slice(1);
      const key = this.#key(segments);
      const list = this.#byPrefix.get(key) ?? [];
      list.push({ ...route, segments });
      this.#byPrefix.set(key, list);
    }
  }

  #key(segments: string[]): string {
    return segments.slice(0, this.keyDepth).join("/");
  }

  /** The route for a decoded path; `methodMismatch` when the path exists under other methods. */
  match(method: string, segments: string[]): Match<F> | { methodMismatch: boolean } {
    let pathMatched = false;
    for (const route of this.#byPrefix.get(this.#key(segments)) ?? []) {
      const params: Record<string, string> = {};
      if (!matchSegments(route.segments, segments, params)) continue;
      if (route.method === method) return { route, params };
      pathMatched = true;
    }
    return { methodMismatch: pathMatched };
  }
}
