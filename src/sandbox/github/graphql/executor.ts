import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  getVariableValues,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import type { Account, GithubWorld } from "../world/records.js";
import type { RateStatus } from "../../core/rate-limits.js";
import { analyse, nodeLimitMessage } from "./analysis.js";
import type { GraphqlContext, GraphqlPart } from "./context.js";
import { type GithubError, githubError } from "./errors.js";
import { nodeRoot } from "./resolvers/node.js";
import { rateLimitRoot } from "./resolvers/rate-limit.js";
import { repositoryRoot } from "./resolvers/repository.js";
import { githubSchema } from "./schema.js";

/**
 * One `POST /graphql`: parse, validate against GitHub's schema, check the node limit, price the
 * query by GitHub's formula and charge it to the caller's GraphQL budget, run it over the world,
 * and answer as GitHub does — `{data, errors}` with partial data, status 200 even when the budget
 * is spent ("the response status will still be 200", GitHub's "Rate limits and query limits for
 * the GraphQL API"), and 502 when the query takes longer than the ceiling.
 */

/** The caller's GraphQL budget, as the request pipeline keeps it. */
export interface GraphqlBudget {
  /** Spends `points`; false, spending nothing, when fewer are left. */
  take(points: number): boolean;
  status(): RateStatus;
}

export interface GraphqlRequest {
  world: GithubWorld;
  /** Every area's part of the schema. */
  parts: readonly GraphqlPart[];
  caller: Account | null;
  base: string;
  body: Record<string, unknown>;
  budget: GraphqlBudget;
  /**
   * The response-time ceiling: a query whose modelled processing time is longer is answered 502,
   * as GitHub answers a query it could not finish in its 10 s. Undefined: no ceiling.
   */
  timeoutMs: number | undefined;
  /** Quoted in the 502's message, as GitHub quotes its request id. */
  requestId: string;
}

export interface GraphqlAnswer {
  status: number;
  body: unknown;
}

/**
 * The modelled processing time of a query: a millisecond for every object in its answer (every
 * repository, rule, ruleset, label, actor …). The sandbox answers in far less; the model makes the
 * ceiling depend only on what a query asks for, so a batch too big for it fails the same way on
 * every run and machine.
 */
export const MS_PER_OBJECT = 1;

function objectsIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + objectsIn(item), 0);
  if (value === null || typeof value !== "object") return 0;
  let count = 1;
  for (const inner of Object.values(value)) count += objectsIn(inner);
  return count;
}

const errorsOnly = (errors: GithubError[]): GraphqlAnswer => ({ status: 200, body: { errors } });

function operationOf(document: DocumentNode, name: unknown): OperationDefinitionNode | GithubError {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (typeof name === "string") {
    const named = operations.find((operation) => operation.name?.value === name);
    return named ?? { message: `No operation named "${name}"` };
  }
  if (operations.length === 1) return operations[0]!;
  return { message: "An operation name is required" };
}

export function runGraphql(request: GraphqlRequest): GraphqlAnswer {
  const { body } = request;
  if (typeof body.query !== "string") {
    return errorsOnly([{ message: "A query attribute must be specified and must be a string." }]);
  }
  const schema = githubSchema();
  let document: DocumentNode;
  try {
    document = parse(body.query);
  } catch (error) {
    if (error instanceof GraphQLError) return errorsOnly([githubError(error)]);
    throw error;
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return errorsOnly(invalid.map(githubError));
  const operation = operationOf(document, body.operationName);
  if (!("kind" in operation)) return errorsOnly([operation]);
  if (operation.operation !== "query") {
    return errorsOnly([
      { message: "The sandbox answers queries only; it carries out no mutations." },
    ]);
  }
  const given = body.variables ?? {};
  const coerced = getVariableValues(
    schema,
    operation.variableDefinitions ?? [],
    typeof given === "object" && given !== null ? (given as Record<string, unknown>) : {},
  );
  if (coerced.errors) return errorsOnly(coerced.errors.map(githubError));
  const fragments = document.definitions.filter(
    (definition): definition is FragmentDefinitionNode =>
      definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  const analysis = analyse(schema, operation, fragments, coerced.coerced);
  if (analysis.overLimit) {
    return errorsOnly([
      {
        type: "MAX_NODE_LIMIT_EXCEEDED",
        locations: [locationOf(analysis.overLimit.field.loc?.startToken)],
        message: nodeLimitMessage(analysis.overLimit),
      },
    ]);
  }
  if (!request.budget.take(analysis.cost)) {
    const who = request.caller ? `user ID ${request.caller.id}` : "this address";
    return errorsOnly([{ type: "RATE_LIMITED", message: `API rate limit exceeded for ${who}.` }]);
  }
  const context: GraphqlContext = {
    world: request.world,
    parts: request.parts,
    caller: request.caller,
    base: request.base,
    rateLimit: () => {
      const status = request.budget.status();
      return {
        cost: analysis.cost,
        limit: status.limit,
        nodeCount: analysis.nodes,
        remaining: status.remaining,
        resetAt: new Date(status.reset * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
        used: status.used,
      };
    },
  };
  const result = execute({
    schema,
    document,
    operationName: typeof body.operationName === "string" ? body.operationName : undefined,
    rootValue: { ...repositoryRoot(context), ...nodeRoot(context), ...rateLimitRoot(context) },
    contextValue: context,
    variableValues: coerced.coerced,
  });
  if (result instanceof Promise) throw new Error("the sandbox's resolvers are synchronous");
  const timeout = request.timeoutMs;
  if (timeout !== undefined && objectsIn(result.data) * MS_PER_OBJECT > timeout) {
    // GitHub's answer to a query it could not finish in time (apache/devlake#4349).
    return {
      status: 502,
      body: {
        data: null,
        errors: [
          {
            message: `Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include \`${request.requestId}\` when reporting this issue.`,
          },
        ],
      },
    };
  }
  const errors = result.errors?.map(githubError);
  return {
    status: 200,
    body: { data: result.data ?? null, ...(errors && errors.length > 0 ? { errors } : {}) },
  };
}

function locationOf(token: { line: number; column: number } | undefined) {
  return { line: token?.line ?? 1, column: token?.column ?? 1 };
}
