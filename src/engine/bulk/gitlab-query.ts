import { GITLAB_QUERY_LIMITS, predictComplexity } from "../../forge/client.js";
import { buildQuery, type QueryPart } from "./query.js";

/**
 * Queries to GitLab's GraphQL API within its limits (doc/api/graphql/index.md, "Limits"): each
 * query's complexity, as GitLab will score it, at most 250, its text at most 10,000 characters.
 * Projects are aliased into one query (`a0: project(fullPath: $v0) { … }`) as many as fit; a
 * project's parts (its kinds) stay in one query.
 */

/** A GitLab project's part: the kind's fields under `project(fullPath:)`. */
export function projectField(
  alias: string,
  fullPath: string,
  fields: string,
  add: (type: string, value: unknown) => string,
): string {
  return `${alias}: project(fullPath: ${add("ID!", fullPath)}) { ${fields} }`;
}

/** The complexity GitLab scores a query of these parts. */
export function complexityOf(parts: readonly QueryPart[]): number {
  const { text, variables } = buildQuery(parts, "gitlab");
  return predictComplexity(text, variables);
}

function fits(parts: readonly QueryPart[]): boolean {
  const { text, variables } = buildQuery(parts, "gitlab");
  return (
    text.length <= GITLAB_QUERY_LIMITS.length &&
    predictComplexity(text, variables) <= GITLAB_QUERY_LIMITS.complexity
  );
}

/**
 * Items packed into queries in order, as many as fit GitLab's limits. An item that does not fit
 * alone gets a query of its own: GitLab refuses it, and the runner reads it over REST.
 */
export function packGitlab<T>(
  items: readonly T[],
  partsOf: (item: T) => readonly QueryPart[],
): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let parts: QueryPart[] = [];
  for (const item of items) {
    const own = partsOf(item);
    if (batch.length > 0 && !fits([...parts, ...own])) {
      batches.push(batch);
      batch = [];
      parts = [];
    }
    batch.push(item);
    parts.push(...own);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
