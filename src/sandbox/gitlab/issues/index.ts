import { gitlabArea } from "../area.js";
import { issueRoutes } from "./routes.js";

/**
 * Projects' issues and their notes: what GitLab CI's scheduled drift check opens, edits and closes
 * (forgeplan ci). The demo world starts without issues; the sandbox keeps what is opened.
 */
export const issues = gitlabArea({
  name: "issues",
  routes: issueRoutes,
});
