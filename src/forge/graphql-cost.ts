// Only the parser, not the package's index: the index loads the type system, validation and
// execution too (a tenth of a second of every run's start), and a cost needs only the query's shape.
import type { FieldNode, SelectionSetNode } from "graphql/language/ast.js";
import { Kind } from "graphql/language/kinds.js";
import { parse } from "graphql/language/parser.js";

/**
 * What a GraphQL query will cost, by GitHub's published formula ("Rate limits and query limits for
 * the GraphQL API", "Predicting the point value of a query"): add up the requests each connection
 * needs, assuming every enclosing connection returns its full `first`/`last`, divide by 100 and
 * round, at least 1 point. The client reserves this much of the `graphql` budget before it sends a
 * query, as it reserves one request of a REST category; the answer's `rateLimit.cost` and headers
 * then say what was spent.
 *
 * Without the schema, a connection is a field with a `first` or `last` argument: every connection
 * forgeplan reads has one (GitHub requires it), and no other field it reads takes either.
 */
export function predictCost(query: string, variables: Record<string, unknown> = {}): number {
  return costOf(predictQuery(query, variables).requests);
}

/** The points of a query needing `requests`: ÷ 100, rounded to the nearest whole, at least 1. */
export function costOf(requests: number): number {
  return Math.max(1, Math.round(requests / 100));
}

/**
 * The requests GitHub counts to fill every connection of a query, before they become points, and
 * the nodes it may return: each connection's `first`/`last` times those around it (at most 500,000
 * a query).
 */
export function predictQuery(
  query: string,
  variables: Record<string, unknown> = {},
): { requests: number; nodes: number } {
  const document = parse(query, { noLocation: true });
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition.selectionSet);
    }
  }
  let requests = 0;
  let nodes = 0;
  const visit = (selections: SelectionSetNode, multiplier: number, spreading: Set<string>) => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        const page = pageSize(selection, variables);
        if (page !== undefined) {
          requests += multiplier;
          nodes += multiplier * page;
        }
        if (selection.selectionSet) {
          visit(selection.selectionSet, multiplier * (page ?? 1), spreading);
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, multiplier, spreading);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (fragment && !spreading.has(name)) {
          visit(fragment, multiplier, new Set(spreading).add(name));
        }
      }
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      visit(definition.selectionSet, 1, new Set());
    }
  }
  return { requests, nodes };
}

function pageSize(field: FieldNode, variables: Record<string, unknown>): number | undefined {
  for (const argument of field.arguments ?? []) {
    if (argument.name.value !== "first" && argument.name.value !== "last") continue;
    const value =
      argument.value.kind === Kind.VARIABLE
        ? variables[argument.value.name.value]
        : argument.value.kind === Kind.INT
          ? Number(argument.value.value)
          : undefined;
    if (typeof value === "number") return value;
  }
  return undefined;
}

/** GitLab's limits on one query (doc/api/graphql/index.md, "Limits"). */
export const GITLAB_QUERY_LIMITS = { complexity: 250, pageSize: 100, length: 10_000 } as const;

/**
 * What GitLab will score a query's complexity (app/graphql/types/base_field.rb): every field 1
 * plus its children's; a field resolved with arguments 1 more (BaseResolver.resolver_complexity);
 * a connection — a field with `first` or `last` — its whole again times the page size ÷ 100
 * (`connection_complexity_multiplier`), truncated. Without the schema, a field that takes
 * arguments in the query is the resolver's: every field forgeplan asks with arguments is one, and
 * every connection it reads is asked with `first`.
 */
export function predictComplexity(query: string, variables: Record<string, unknown> = {}): number {
  const document = parse(query, { noLocation: true });
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition.selectionSet);
    }
  }
  const score = (selections: SelectionSetNode, spreading: ReadonlySet<string>): number => {
    let total = 0;
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        let cost = 1 + (selection.selectionSet ? score(selection.selectionSet, spreading) : 0);
        if ((selection.arguments ?? []).length > 0) cost += 1;
        const page = pageSize(selection, variables);
        if (page !== undefined) {
          cost += (cost * Math.min(page, GITLAB_QUERY_LIMITS.pageSize)) / 100;
        }
        total += Math.trunc(cost);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += score(selection.selectionSet, spreading);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment && !spreading.has(selection.name.value)) {
          total += score(fragment, new Set(spreading).add(selection.name.value));
        }
      }
    }
    return total;
  };
  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      total += score(definition.selectionSet, new Set());
    }
  }
  return total;
}
