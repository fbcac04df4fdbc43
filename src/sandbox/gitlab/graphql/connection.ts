import { GraphQLError } from "graphql";
import { LIMITS } from "./complexity.js";

/**
 * GitLab's connections over a list the world holds: `first`/`last` optional (the page is then the
 * max page size, 100: doc/api/graphql/index.md, "Max page size"), more than 100 refused (issue
 * #38's rule, "at most 100 nodes a page"), opaque cursors, `nodes` and `pageInfo`.
 */
export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

function cursorOf(index: number): string {
  return Buffer.from(JSON.stringify({ id: String(index) })).toString("base64");
}

function indexOf(cursor: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const id = (parsed as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || !/^\d+$/.test(id)) {
    throw new GraphQLError("Please provide a valid cursor");
  }
  return Number(id);
}

export function connection<T, N>(items: readonly T[], args: PageArgs, node: (item: T) => N) {
  const { first, last, after, before } = args;
  for (const [name, value] of [
    ["first", first],
    ["last", last],
  ] as const) {
    if (typeof value === "number" && (value < 0 || value > LIMITS.pageSize)) {
      throw new GraphQLError(
        `\`${name}\` must be between 0 and the max page size of ${LIMITS.pageSize}, got ${value}`,
      );
    }
  }
  let start = after ? indexOf(after) + 1 : 0;
  let end = before ? indexOf(before) : items.length;
  start = Math.min(Math.max(start, 0), items.length);
  end = Math.min(Math.max(end, start), items.length);
  if (typeof last === "number" && typeof first !== "number") start = Math.max(start, end - last);
  else end = Math.min(end, start + (typeof first === "number" ? first : LIMITS.pageSize));
  const window = items.slice(start, end);
  return {
    // GitLab's connections count the whole list (`count: Int!`, "Total count of collection").
    count: items.length,
    nodes: window.map(node),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: window.length > 0 ? cursorOf(start) : null,
      endCursor: window.length > 0 ? cursorOf(end - 1) : null,
    },
  };
}
