import { paginate } from "../core/pagination.js";
import type { Route } from "../core/router.js";
import { memberOrganization } from "./org-access.js";
import { team } from "./shapes.js";

/** An organization's teams. */
export const teamRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/orgs/:org/teams",
    handler: (ctx) => {
      const org = memberOrganization(ctx);
      const teams = [...org.teams.values()].sort((a, b) => a.id - b.id);
      const page = paginate(ctx, teams, "github");
      return {
        status: 200,
        body: page.items.map((item) => team(ctx.base, item)),
        headers: page.headers,
      };
    },
  },
];
