import {
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLCompositeType,
  GraphQLInt,
  type GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
  valueFromAST,
} from "graphql";

/**
 * What a query may cost before it runs, by GitHub's published rules ("Rate limits and query limits
 * for the GraphQL API", docs/service-decisions.md):
 *
 * - requests: for every connection, the requests needed to fill it, assuming every enclosing
 *   connection returns its full `first`/`last` — 1 at the top, 100 under a `first: 100` connection;
 * - cost: those requests ÷ 100, rounded to the nearest whole number, at least 1;
 * - nodes: for every connection, its `first`/`last` times those of the connections around it; a
 *   query may ask for at most 500,000.
 *
 * A connection is a field whose type is a `…Connection`. One without `first` or `last` counts as
 * 100 here; running it is refused (MISSING_PAGINATION_BOUNDARIES).
 */

export const MAX_NODES = 500_000;
const ASSUMED_PAGE = 100;

export interface Analysis {
  requests: number;
  nodes: number;
  cost: number;
  /** The connection at which the query first asks for more than MAX_NODES, and how many. */
  overLimit?: { field: FieldNode; nodes: number };
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  requests: number;
  nodes: number;
  overLimit?: { field: FieldNode; nodes: number };
}

export function analyse(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
  variables: Record<string, unknown>,
): Analysis {
  const root = operation.operation === "query" ? schema.getQueryType() : schema.getMutationType();
  const walk: Walk = {
    schema,
    fragments: new Map(fragments.map((fragment) => [fragment.name.value, fragment])),
    variables,
    requests: 0,
    nodes: 0,
  };
  if (root) visitSelections(walk, operation.selectionSet, root, 1, new Set());
  return {
    requests: walk.requests,
    nodes: walk.nodes,
    cost: Math.max(1, Math.round(walk.requests / 100)),
    ...(walk.overLimit ? { overLimit: walk.overLimit } : {}),
  };
}

function visitSelections(
  walk: Walk,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  multiplier: number,
  spreading: ReadonlySet<string>,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      visitField(walk, selection, parent, multiplier, spreading);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition
        ? typeFromAST(walk.schema, selection.typeCondition)
        : parent;
      if (type && isCompositeType(type)) {
        visitSelections(walk, selection.selectionSet, type, multiplier, spreading);
      }
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      // A fragment that spreads itself is refused by validation; it is never walked twice.
      if (fragment === undefined || spreading.has(name)) continue;
      const type = typeFromAST(walk.schema, fragment.typeCondition);
      if (type && isCompositeType(type)) {
        const inner = new Set(spreading).add(name);
        visitSelections(walk, fragment.selectionSet, type, multiplier, inner);
      }
    }
  }
}

function visitField(
  walk: Walk,
  field: FieldNode,
  parent: GraphQLCompositeType,
  multiplier: number,
  spreading: ReadonlySet<string>,
): void {
  if (!(isObjectType(parent) || isInterfaceType(parent))) return;
  const definition = parent.getFields()[field.name.value];
  if (definition === undefined || field.selectionSet === undefined) return;
  const type = getNamedType(definition.type);
  if (!isCompositeType(type)) return;
  let inner = multiplier;
  if (type.name.endsWith("Connection")) {
    const page = pageSize(walk, field) ?? ASSUMED_PAGE;
    walk.requests += multiplier;
    inner = multiplier * page;
    walk.nodes += inner;
    if (walk.overLimit === undefined && walk.nodes > MAX_NODES) {
      walk.overLimit = { field, nodes: walk.nodes };
    }
  }
  visitSelections(walk, field.selectionSet, type, inner, spreading);
}

/** The `first` or `last` a connection asks for, literal or from a variable. */
function pageSize(walk: Walk, field: FieldNode): number | undefined {
  for (const name of ["first", "last"]) {
    const argument = field.arguments?.find((candidate) => candidate.name.value === name);
    if (argument === undefined) continue;
    const value: unknown =
      argument.value.kind === Kind.VARIABLE
        ? walk.variables[argument.value.name.value]
        : valueFromAST(argument.value, GraphQLInt);
    if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  }
  return undefined;
}

/** GitHub's words for a query over the node limit (its graphql-ruby analyzer's message). */
export function nodeLimitMessage(over: { field: FieldNode; nodes: number }): string {
  const count = (value: number) => value.toLocaleString("en-US");
  return `By the time this query traverses to the ${over.field.name.value} connection, it is requesting up to ${count(over.nodes)} possible nodes which exceeds the maximum limit of ${count(MAX_NODES)}.`;
}
