import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLField,
  type GraphQLSchema,
  isCompositeType,
  Kind,
  type SelectionSetNode,
  typeFromAST,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  isObjectType,
  isInterfaceType,
  valueFromAST,
  type ValueNode,
} from "graphql";

/**
 * GitLab's query limits (doc/api/graphql/index.md, "Limits"; issue #38 states the first three):
 * complexity 250 for an authenticated request, at most 100 nodes a page, 10,000 characters a
 * query; 200 without a token and depth 15 as that page gives them (not re-read: docs/service-decisions.md).
 *
 * Complexity as app/graphql/types/base_field.rb computes it: every field costs 1
 * (DEFAULT_COMPLEXITY) plus its children's; a field resolved by a resolver (every field that takes
 * arguments here) adds 1 (BaseResolver.resolver_complexity), and a connection multiplies its whole
 * by 1 + the page size × 0.01 (`connection_complexity_multiplier`: the smaller of `first`, `last`
 * and the max page size, times the resolver's 0.01), truncated to an integer. graphql-ruby sums
 * the fields of a selection; an inline fragment's fields are summed with the rest.
 */
export const LIMITS = {
  complexity: 250,
  anonymousComplexity: 200,
  depth: 15,
  pageSize: 100,
  queryLength: 10_000,
} as const;

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function fieldOf(
  type: GraphQLCompositeType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
}

function pageSizeOf(args: Record<string, unknown>): number {
  const asked = [args.first, args.last].filter(
    (value): value is number => typeof value === "number",
  );
  return Math.min(LIMITS.pageSize, ...asked);
}

function argumentValues(
  walk: Walk,
  field: GraphQLField<unknown, unknown>,
  node: { arguments?: readonly { name: { value: string }; value: ValueNode }[] },
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const argument of node.arguments ?? []) {
    const definition = field.args.find((arg) => arg.name === argument.name.value);
    if (definition)
      values[argument.name.value] = valueFromAST(argument.value, definition.type, walk.variables);
  }
  return values;
}

/** The complexity and depth of a selection on `type`. */
function measure(
  walk: Walk,
  type: GraphQLCompositeType,
  selections: SelectionSetNode,
  seen: ReadonlySet<string>,
): { complexity: number; depth: number } {
  let complexity = 0;
  let depth = 0;
  for (const selection of selections.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = fieldOf(type, selection.name.value);
      if (field === undefined) continue; // __typename, or what validation already refused
      const named: GraphQLNamedType = getNamedType(field.type);
      const inner =
        selection.selectionSet && isCompositeType(named)
          ? measure(walk, named, selection.selectionSet, seen)
          : { complexity: 0, depth: 0 };
      let cost = 1 + inner.complexity + (field.args.length > 0 ? 1 : 0);
      if (named.name.endsWith("Connection")) {
        cost += cost * pageSizeOf(argumentValues(walk, field, selection)) * 0.01;
      }
      complexity += Math.trunc(cost);
      depth = Math.max(depth, 1 + inner.depth);
    } else {
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection
          : seen.has(selection.name.value)
            ? undefined
            : walk.fragments.get(selection.name.value);
      if (fragment === undefined) continue;
      const condition = fragment.typeCondition
        ? (typeFromAST(walk.schema, fragment.typeCondition) as GraphQLCompositeType | undefined)
        : type;
      const next =
        selection.kind === Kind.FRAGMENT_SPREAD ? new Set(seen).add(selection.name.value) : seen;
      const inner = measure(walk, condition ?? type, fragment.selectionSet, next);
      complexity += inner.complexity;
      depth = Math.max(depth, inner.depth);
    }
  }
  return { complexity, depth };
}

/** The complexity and depth of a valid document's operation, as GitLab scores them. */
export function scoreQuery(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
): { complexity: number; depth: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: SelectionSetNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operation ??= definition.selectionSet;
  }
  const root = schema.getQueryType();
  if (operation === undefined || root === null || root === undefined)
    return { complexity: 0, depth: 0 };
  return measure({ schema, fragments, variables }, root, operation, new Set());
}
