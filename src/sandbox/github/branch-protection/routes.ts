import { noContent, notFound, ok } from "../http.js";
import { pageReply } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { adminRepository, assertUnlocked, branchOf, visibleRepository } from "../world/access.js";
import { branch } from "./shapes.js";
import { protectionOf, setProtection } from "./records.js";
import {
  isWildcardBranch,
  PROTECTION_OPERATION,
  protectedBranch,
  protectionFromBody,
} from "./record.js";

/**
 * A branch's classic protection (spec endpoint 1), and the branches themselves, which say whether
 * each is protected. The protection routes come before the branch route: its `*branch` would
 * otherwise take `main/protection` as a branch name.
 */
export const branchProtectionRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/branches/*branch/protection",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const found = branchOf(ctx, repo);
      const protection = protectionOf(found);
      if (!protection) throw notFound("Branch not protected");
      return ok(protectedBranch(ctx.base, repo, found.name, protection));
    },
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/branches/*branch/protection",
    operation: PROTECTION_OPERATION,
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      if (isWildcardBranch(ctx.params.branch ?? "")) {
        throw ctx.invalid(
          [
            "branch: wildcard characters are not allowed; use the GraphQL API to protect branches by pattern",
          ],
          "ProtectedBranch",
        );
      }
      const found = branchOf(ctx, repo);
      assertUnlocked(ctx, repo);
      const signatures = protectionOf(found)?.required_signatures ?? false;
      const result = protectionFromBody(ctx.world, repo, ctx.json(), signatures);
      if ("errors" in result) throw ctx.invalid(result.errors, "ProtectedBranch");
      setProtection(found, result.protection);
      return ok(protectedBranch(ctx.base, repo, found.name, result.protection));
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/branches/*branch/protection",
    operation: "DELETE /repos/{owner}/{repo}/branches/{branch}/protection",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const found = branchOf(ctx, repo);
      if (!protectionOf(found)) throw notFound("Branch not protected");
      assertUnlocked(ctx, repo);
      setProtection(found, null);
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/branches",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const names = [...repo.branches.keys()].sort();
      return pageReply(ctx, names, (name) => branch(ctx.base, repo, name));
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/branches/*branch",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      return ok(branch(ctx.base, repo, branchOf(ctx, repo).name));
    },
  },
];
