import { noContent, notFound, ok } from "../http.js";
import type { Route } from "../http.js";
import { adminRepository, assertUnlocked, branchOf } from "../repo-access.js";
import {
  isWildcardBranch,
  PROTECTION_OPERATION,
  protectedBranch,
  protectionFromBody,
} from "./record.js";

/**
 * A branch's classic protection (spec endpoint 1). They come before the branch route in the table:
 * its `*branch` would otherwise take `main/protection` as a branch name.
 */
export const branchProtectionRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/branches/*branch/protection",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const found = branchOf(ctx, repo);
      if (!found.protection) throw notFound("Branch not protected");
      return ok(protectedBranch(ctx.base, repo, found.name, found.protection));
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
      const signatures = found.protection?.required_signatures ?? false;
      const result = protectionFromBody(ctx.world, repo, ctx.json(), signatures);
      if ("errors" in result) throw ctx.invalid(result.errors, "ProtectedBranch");
      found.protection = result.protection;
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
      if (!found.protection) throw notFound("Branch not protected");
      assertUnlocked(ctx, repo);
      found.protection = null;
      return noContent;
    },
  },
];
