import type { GraphqlContext } from "../context.js";
import { TypedError } from "../errors.js";
import { parseNodeId } from "../ids.js";
import { repositoryObject } from "./repository.js";
import { ruleObject } from "./branch-protection.js";
import { rulesetObject } from "./rulesets.js";
import { rulesetsOf } from "../../rulesets/match.js";

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
  if (parsed.type === "BranchProtectionRule") {
    const colon = parsed.key.indexOf(":");
    const repo = world.repositoriesById.get(Number(parsed.key.slice(0, colon)));
    const branch = repo?.branches.get(parsed.key.slice(colon + 1));
    if (!repo || !branch?.protection || !world.can(repo, caller, "admin")) return null;
    return ruleObject(ctx, repo, branch, branch.protection);
  }
  if (parsed.type === "RepositoryRuleset") {
    const wanted = Number(parsed.key);
    for (const org of world.organizations.values()) {
      const found = org.rulesets.get(wanted);
      // An organization's ruleset is seen by who can see a repository it applies to.
      if (
        found &&
        (world.repositoriesByOwner.get(org.account.login.toLowerCase()) ?? []).some(
          (repo) => world.can(repo, caller, "pull") && rulesetsOf(repo, true).includes(found),
        )
      ) {
        return rulesetObject(ctx, found);
      }
    }
    for (const repo of world.repositories.values()) {
      const found = repo.rulesets.get(wanted);
      if (found) return world.can(repo, caller, "pull") ? rulesetObject(ctx, found) : null;
    }
  }
  return null;
}

export function nodeRoot(ctx: GraphqlContext) {
  return {
    node: ({ id }: { id: string }) => resolve(ctx, id),
    nodes: ({ ids }: { ids: string[] }) => ids.map((id) => lookUp(ctx, id)),
  };
}
