import { TypedError } from "./errors.js";

/**
 * GitHub's connections over a list the world holds: `first`/`last` required and at most 100 (checked
 * as GitHub checks them, where the connection is resolved, so the error has the connection's path
 * and the rest of the answer stands), opaque cursors, `nodes`, `edges`, `pageInfo`, `totalCount`.
 */

export const MAX_PAGE = 100;

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

function cursorOf(index: number): string {
  return Buffer.from(`cursor:v2:${index}`).toString("base64");
}

function indexOf(cursor: string): number {
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  if (!match) {
    throw new TypedError(
      "INVALID_CURSOR_ARGUMENTS",
      `\`${cursor}\` does not appear to be a valid cursor.`,
    );
  }
  return Number(match[1]);
}

function checkBound(field: string, name: "first" | "last", value: number): void {
  if (value > MAX_PAGE || value < 0) {
    throw new TypedError(
      "EXCESSIVE_PAGINATION",
      `Requesting ${value} records on the \`${field}\` connection exceeds the \`${name}\` limit of ${MAX_PAGE} records.`,
    );
  }
}

/**
 * One page of `items`; each edge is `node` plus what `edge` adds (a collaborator's `permission`).
 * `field` names the connection in errors ("labels").
 */
export function connection<T, N>(
  field: string,
  items: readonly T[],
  args: PageArgs,
  node: (item: T) => N,
  edge: (item: T) => Record<string, unknown> = () => ({}),
) {
  const { first, last, after, before } = args;
  if ((first === undefined || first === null) && (last === undefined || last === null)) {
    throw new TypedError(
      "MISSING_PAGINATION_BOUNDARIES",
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${field}\` connection.`,
    );
  }
  if (typeof first === "number") checkBound(field, "first", first);
  if (typeof last === "number") checkBound(field, "last", last);
  let start = after ? indexOf(after) + 1 : 0;
  let end = before ? indexOf(before) : items.length;
  start = Math.min(Math.max(start, 0), items.length);
  end = Math.min(Math.max(end, start), items.length);
  if (typeof first === "number") end = Math.min(end, start + first);
  if (typeof last === "number") start = Math.max(start, end - last);
  const window = items.slice(start, end).map((item, offset) => ({ item, index: start + offset }));
  return {
    totalCount: items.length,
    nodes: window.map(({ item }) => node(item)),
    edges: window.map(({ item, index }) => ({
      cursor: cursorOf(index),
      node: node(item),
      ...edge(item),
    })),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: window.length > 0 ? cursorOf(start) : null,
      endCursor: window.length > 0 ? cursorOf(end - 1) : null,
    },
  };
}
