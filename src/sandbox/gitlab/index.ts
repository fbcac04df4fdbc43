import type { Route } from "../core/router.js";
import { gitlabAccountRoutes } from "./account.js";
import { boardRoutes } from "./boards.js";
import { epicLinkRoutes } from "./epic-links.js";

/** GitLab's planning paths under /api/v4, one file per area. */
export const gitlabRoutes: Route[] = [...gitlabAccountRoutes, ...epicLinkRoutes, ...boardRoutes];
