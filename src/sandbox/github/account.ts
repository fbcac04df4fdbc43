import { ok, requireCaller } from "../core/http-support.js";
import type { Route } from "../core/router.js";
import { authenticatedUser } from "./shapes.js";

/** The caller's own account and rate limit (spec endpoint 5). */
export const accountRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/user",
    handler: (ctx) => ok(authenticatedUser(ctx.base, ctx.world, requireCaller(ctx))),
  },
  {
    method: "GET",
    pattern: "/rate_limit",
    free: true,
    handler: (ctx) => ok(ctx.rateOverview()),
  },
];
