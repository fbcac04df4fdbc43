import type { Family, Reply, RequestContext } from "./http-support.js";

export type Handler = (ctx: RequestContext) => Reply;

export interface Route {
  method: "GET" | "PUT" | "PATCH" | "POST" | "DELETE";
  /** Segments: literals, `:name` for one segment, `*name` for one or more (branch names hold slashes). */
  pattern: string;
  handler: Handler;
  /** `GET /rate_limit` does not count against any budget. */
  free?: boolean;
  /**
   * The service's operation this route serves, `METHOD /path` as its published description names
   * it (every write has one): GitHub's request schemas check the body (request-rules.ts).
   */
  operation?: string;
  /**
   * Metered by the route itself rather than as a REST request: `graphql` draws on the GraphQL
   * budget, charged by the handler once a query's cost is known (`RequestContext.budget`), and on
   * the secondary limit at GraphQL's points (github/graphql/routes.ts).
   */
  metered?: "graphql";
}

interface CompiledRoute extends Route {
  segments: string[];
  family: Family;
}

export interface Match {
  route: CompiledRoute;
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

/** A route table indexed by the first path segments, so a request is matched against a few routes. */
export class Router {
  readonly #byPrefix = new Map<string, CompiledRoute[]>();

  constructor(routes: Route[]) {
    for (const route of routes) {
      const segments = route.pattern.split("/").slice(1);
      const family: Family = segments[0] === "api" ? "gitlab" : "github";
      const key = this.#key(segments);
      const list = this.#byPrefix.get(key) ?? [];
      list.push({ ...route, segments, family });
      this.#byPrefix.set(key, list);
    }
  }

  #key(segments: string[]): string {
    return segments[0] === "api" ? `api/${segments[2] ?? ""}` : (segments[0] ?? "");
  }

  /** The route for a decoded path; `methodMismatch` when the path exists under other methods. */
  match(method: string, segments: string[]): Match | { methodMismatch: boolean } {
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
