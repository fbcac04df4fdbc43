import { ForgeError, type ForgeClient, type GraphqlError } from "../../forge/client.js";
import { buildQuery, type Dialect, type QueryPart } from "./query.js";

/**
 * Runs parts as one query and gives each its own outcome: its data, with the places of the errors
 * inside it (a field that failed reads null there, which is no value to take as the service's);
 * `missing` when GitHub could not resolve its repository (NOT_FOUND at its alias: the repository
 * is not there, or hidden from the credential); `failed` when it has no data — the caller reads that
 * part over REST. A query GitHub could not finish (502, 504) or that asks
 * too much (MAX_NODE_LIMIT_EXCEEDED, RESOURCE_LIMITS_EXCEEDED) is split in two and each half run
 * again, down to single parts; one that still fails is `failed`. Rate-limit waits beyond the
 * maximum, a stop, and errors that are not the service's answer end the run as REST reads would.
 * GitLab answers a project the credential cannot see with null and no error: `failed`, so REST
 * reads it and answers as REST does.
 */

export type PartOutcome =
  /** Its data, and the paths (below its alias) of the errors inside it, whose values are null. */
  | { kind: "data"; data: unknown; errors: Array<ReadonlyArray<string | number>> }
  | { kind: "missing" }
  | { kind: "failed" };

const TOO_BIG = new Set(["MAX_NODE_LIMIT_EXCEEDED", "RESOURCE_LIMITS_EXCEEDED"]);
/**
 * GitLab's refusals of a query too big, in graphql-ruby's words ("Query has complexity of 300,
 * which exceeds max complexity of 250", likewise depth) or its own for the length: asked again
 * in halves, as GitHub's are.
 */
const GITLAB_TOO_BIG = /exceeds max (complexity|depth)|query too large/i;

type Answered = { kind: "split" } | { kind: "outcomes"; outcomes: PartOutcome[] };

function outcomesOf(
  aliases: readonly string[],
  data: Record<string, unknown> | null,
  errors: readonly GraphqlError[],
): Answered {
  const tooBig = (error: GraphqlError) =>
    (error.type !== undefined && TOO_BIG.has(error.type)) ||
    (error.path === undefined && GITLAB_TOO_BIG.test(error.message));
  if (errors.some(tooBig)) {
    return { kind: "split" };
  }
  if (data === null) return { kind: "outcomes", outcomes: aliases.map(() => ({ kind: "failed" })) };
  return {
    kind: "outcomes",
    outcomes: aliases.map((alias): PartOutcome => {
      const own = errors.filter((error) => error.path?.[0] === alias);
      const value = data[alias];
      if (value === null || typeof value !== "object") {
        const missing =
          own.length > 0 &&
          own.every((error) => error.type === "NOT_FOUND" && error.path?.length === 1);
        return missing ? { kind: "missing" } : { kind: "failed" };
      }
      return { kind: "data", data: value, errors: own.map((error) => error.path!.slice(1)) };
    }),
  };
}

async function attempt(
  client: ForgeClient,
  parts: readonly QueryPart[],
  dialect: Dialect,
): Promise<Answered> {
  const query = buildQuery(parts, dialect);
  try {
    const result = await client.graphql<Record<string, unknown>>(query.text, query.variables);
    const data =
      result.data !== null && typeof result.data === "object" && !Array.isArray(result.data)
        ? result.data
        : null;
    return outcomesOf(query.aliases, data, result.errors);
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    if (error.status === 502 || error.status === 504) return { kind: "split" };
    return { kind: "outcomes", outcomes: parts.map(() => ({ kind: "failed" })) };
  }
}

export async function runParts(
  client: ForgeClient,
  parts: readonly QueryPart[],
  dialect: Dialect = "github",
): Promise<PartOutcome[]> {
  if (parts.length === 0) return [];
  const answered = await attempt(client, parts, dialect);
  if (answered.kind === "outcomes") return answered.outcomes;
  if (parts.length === 1) return [{ kind: "failed" }];
  const half = Math.ceil(parts.length / 2);
  const [first, second] = await Promise.all([
    runParts(client, parts.slice(0, half), dialect),
    runParts(client, parts.slice(half), dialect),
  ]);
  return [...first, ...second];
}
