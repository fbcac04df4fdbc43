import { noContent, notFound, ok } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { type Invitation, invitationsOf } from "./records.js";
import { adminRepository, assertUnlocked } from "../world/access.js";
import { invitation } from "./shapes.js";

/** A repository's open invitations (spec endpoint 3), a change of their role, and their revocation. */
export const invitationRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/invitations",
    handler: (ctx) => {
      const { repo, caller } = adminRepository(ctx);
      const all = [...invitationsOf(repo).values()].sort((a, b) => a.id - b.id);
      const page = paginate(ctx, all);
      return {
        status: 200,
        body: page.items.map((item) => invitation(ctx.base, ctx.world, repo, item, caller)),
        headers: page.headers,
      };
    },
  },
  {
    method: "PATCH",
    pattern: "/repos/:owner/:repo/invitations/:id",
    operation: "PATCH /repos/{owner}/{repo}/invitations/{invitation_id}",
    handler: (ctx) => {
      const { repo, caller } = adminRepository(ctx);
      const found = invitationsOf(repo).get(Number(ctx.params.id));
      if (!found) throw notFound();
      const { permissions } = ctx.json();
      assertUnlocked(ctx, repo);
      if (permissions !== undefined) found.permissions = permissions as Invitation["permissions"];
      return ok(invitation(ctx.base, ctx.world, repo, found, caller));
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/invitations/:id",
    operation: "DELETE /repos/{owner}/{repo}/invitations/{invitation_id}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const id = Number(ctx.params.id);
      if (!invitationsOf(repo).has(id)) throw notFound();
      assertUnlocked(ctx, repo);
      invitationsOf(repo).delete(id);
      return noContent;
    },
  },
];
