import { notFound, ok, requireCaller } from "../http.js";
import type { Route } from "../http.js";
import { seesPrivateProfile, userProfile } from "./profile.js";

/** The caller's own account and rate limit (spec endpoint 5), and other accounts by login. */
export const accountRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/user",
    handler: (ctx) => {
      const caller = requireCaller(ctx);
      const visible = seesPrivateProfile(caller) ? "private" : "public";
      return ok(userProfile(ctx.base, ctx.world, caller, visible));
    },
  },
  {
    method: "GET",
    pattern: "/users/:user",
    handler: (ctx) => {
      const account = ctx.world.account(ctx.params.user ?? "");
      if (account === undefined) throw notFound();
      return ok(userProfile(ctx.base, ctx.world, account, "public"));
    },
  },
  {
    method: "GET",
    pattern: "/rate_limit",
    free: true,
    handler: (ctx) => ok(ctx.rateOverview()),
  },
];
