import { notFound, ok, requireCaller } from "../core/http-support.js";
import type { Route } from "../core/router.js";
import { authenticatedUser, publicUser } from "./shapes.js";

/** The seed holds no account ages: every account reads as made when the demo world begins. */
const ACCOUNTS_CREATED = "2026-01-01T00:00:00Z";

/** The caller's own account and rate limit (spec endpoint 5), and other accounts by login. */
export const accountRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/user",
    handler: (ctx) => ok(authenticatedUser(ctx.base, requireCaller(ctx))),
  },
  {
    method: "GET",
    pattern: "/users/:user",
    handler: (ctx) => {
      const account = ctx.world.account(ctx.params.user ?? "");
      if (account === undefined) throw notFound();
      return ok(publicUser(ctx.base, account, ACCOUNTS_CREATED));
    },
  },
  {
    method: "GET",
    pattern: "/rate_limit",
    free: true,
    handler: (ctx) => ok(ctx.rateOverview()),
  },
];
