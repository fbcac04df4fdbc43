import { ok, requireCaller } from "../core/http-support.js";
import type { Route } from "../core/router.js";
import { planningUser } from "./shapes.js";

/** The caller's own account on planning paths. */
export const gitlabAccountRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/user",
    handler: (ctx) => ok(planningUser(ctx.base, requireCaller(ctx, "gitlab"))),
  },
];
