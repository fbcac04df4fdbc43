import { costOf, predictQuery } from "../../forge/client.js";
import type { Variables } from "../../resources/graphql-read.js";

/**
 * One GraphQL query made of parts, each a top-level field under its own alias (a repository's
 * fields for one kind; a page of a connection), so that an error at one alias is that part's alone.
 * Every value travels as a variable; fragments are written once.
 */

export interface QueryPart {
  /** The part's top-level field under `alias`. */
  field(alias: string, variables: Variables): string;
  /** Fragment definitions it spreads (constant text, written once per query). */
  fragments?: string;
}

export interface BuiltQuery {
  text: string;
  variables: Record<string, unknown>;
  /** Alias of each part, in order. */
  aliases: string[];
}

/** The variables of one query; one value given twice is one variable. */
class VariableSet implements Variables {
  readonly values: Record<string, unknown> = {};
  readonly declarations: string[] = [];
  readonly #byValue = new Map<string, string>();

  add(type: string, value: unknown): string {
    const key = `${type} ${JSON.stringify(value)}`;
    const known = this.#byValue.get(key);
    if (known !== undefined) return known;
    const name = `v${this.declarations.length}`;
    this.declarations.push(`$${name}: ${type}`);
    this.values[name] = value;
    this.#byValue.set(key, `$${name}`);
    return `$${name}`;
  }
}

/** What every query also asks: its own cost and the budget after it (free of cost itself). */
const RATE_LIMIT = "rateLimit { cost remaining resetAt limit used nodeCount }";

/**
 * Whose GraphQL API a query is for: GitHub's, where every query also asks its cost; GitLab's,
 * which has no such field worth its complexity (the client predicts it: ../../forge/graphql-cost.ts).
 */
export type Dialect = "github" | "gitlab";

export function buildQuery(parts: readonly QueryPart[], dialect: Dialect = "github"): BuiltQuery {
  const variables = new VariableSet();
  const aliases = parts.map((_, index) => `a${index}`);
  const fields = parts.map((part, index) => part.field(aliases[index]!, variables));
  const fragments = [...new Set(parts.map((part) => part.fragments).filter((text) => text))];
  const declared =
    variables.declarations.length > 0 ? `(${variables.declarations.join(", ")})` : "";
  const asked = dialect === "github" ? [...fields, RATE_LIMIT] : fields;
  return {
    text: [`query Bulk${declared} {`, ...asked, "}", ...fragments].join("\n"),
    variables: variables.values,
    aliases,
  };
}

/** What one part adds to a query's requests (GitHub's formula) and nodes, measured alone. */
export interface Measure {
  requests: number;
  nodes: number;
}

const measured = new Map<string, Measure>();

/**
 * A part measured by the query it makes alone; parts of one shape (the same kind's fields for the
 * same number of branches) share the measurement, their text being the same but for values.
 */
export function measure(part: QueryPart): Measure {
  const { text, variables } = buildQuery([part]);
  let found = measured.get(text);
  if (found === undefined) {
    found = predictQuery(text, variables);
    measured.set(text, found);
  }
  return found;
}

/** GitHub caps a query at 500,000 nodes. */
const MAX_NODES = 500_000;
/**
 * Items (repositories, or pages of connections) aliased into one query at most: GitHub's answer
 * to a query grows with what it holds, and past its 10 s it is a 502 (split, but a round trip
 * lost); 25 to 50 repositories a query is what the issue measured as fitting.
 */
export const MAX_ITEMS = 50;

/**
 * Items packed into queries in order: as many as fit `MAX_ITEMS` and the node limit, then — since
 * a query's points are its requests ÷ 100 rounded to the nearest whole, at least 1 — cut back (to
 * at most half) until the rounding goes down, so no query of 2 points or more pays for half a point
 * it does not use. An item's parts (a repository's kinds) stay in one query.
 */
export function pack<T>(items: readonly T[], partsOf: (item: T) => readonly QueryPart[]): T[][] {
  const batches: T[][] = [];
  let batch: Array<{ item: T; requests: number }> = [];
  let nodes = 0;
  const close = () => {
    let requests = batch.reduce((sum, entry) => sum + entry.requests, 0);
    const minimum = Math.ceil(batch.length / 2);
    const kept = [...batch];
    // Under 150 requests a query costs 1 point whatever it holds: nothing to gain there.
    while (kept.length > minimum && requests >= 150 && requests % 100 >= 50) {
      requests -= kept.pop()!.requests;
    }
    batches.push(kept.map((entry) => entry.item));
    const carried = batch.slice(kept.length);
    batch = [];
    nodes = 0;
    return carried;
  };
  const queue = [...items];
  while (queue.length > 0) {
    const item = queue.shift()!;
    const measures = partsOf(item).map(measure);
    const requests = measures.reduce((sum, entry) => sum + entry.requests, 0);
    const itemNodes = measures.reduce((sum, entry) => sum + entry.nodes, 0);
    if (batch.length > 0 && (batch.length >= MAX_ITEMS || nodes + itemNodes > MAX_NODES)) {
      const carried = close();
      queue.unshift(...carried.map((entry) => entry.item), item);
      continue;
    }
    batch.push({ item, requests });
    nodes += itemNodes;
  }
  if (batch.length > 0) {
    const carried = close();
    if (carried.length > 0) batches.push(carried.map((entry) => entry.item));
  }
  return batches;
}

/** The points a batch of parts costs: the prediction the client reserves before sending it. */
export function pointsOf(parts: readonly QueryPart[]): number {
  return costOf(parts.map(measure).reduce((sum, entry) => sum + entry.requests, 0));
}
