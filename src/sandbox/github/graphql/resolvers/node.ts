import type { GraphqlContext } from "../context.js";
import { TypedError } from "../errors.js";
import { parseNodeId } from "../ids.js";
import { repositoryObject } from "./repository.js";

/**
 * `Query.node` and `Query.nodes`: objects by global id, as a client reads the next page of a
 * connection nested in one (a protection's allowances, a ruleset's rules). An id that names nothing
 * the caller may see is null: with NOT_FOUND under `node` (GitHub's "Could not resolve to a node
 * with the global id of '…'"), as a null item under `nodes`.
 */

function resolve(ctx: GraphqlContext, id: string): unknown {
  const found = lookUp(ctx, id);
  if (found === null) {
    throw new TypedError("NOT_FOUND", `Could not resolve to a node with the global id of '${id}'`);
  }
  return found;
}

function lookUp(ctx: GraphqlContext, id: string): unknown {
  const parsed = parseNodeId(id);
  if (parsed === undefined) return null;
  const { world, caller } = ctx;
  if (parsed.type === "Repository") {
    const repo = world.repositoriesById.get(Number(parsed.key));
    return repo && world.can(repo, caller, "pull") ? repositoryObject(ctx, repo) : null;
  }
  for (const part of ctx.parts) {
    const find = part.nodes?.[parsed.type];
    if (find !== undefined) return find(ctx, parsed.key);
  }
  return null;
}

export function nodeRoot(ctx: GraphqlContext) {
  return {
    node: ({ id }: { id: string }) => resolve(ctx, id),
    nodes: ({ ids }: { ids: string[] }) => ids.map((id) => lookUp(ctx, id)),
  };
}
