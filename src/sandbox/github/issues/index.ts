import * as z from "zod";
import { fail, login } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { labelsNamed } from "../labels/routes.js";
import { issuePermissions } from "./app-permissions.js";
import { issuesOf } from "./records.js";
import { pullRoutes } from "./pulls.js";
import { issueRoutes, repositoryIssues } from "./routes.js";

/**
 * Issues, their comments and pull requests: what forgeplan's drift issues and pull-request
 * comments are made of. A seeded issue is opened by `author` and carries labels by name (a name
 * no label has makes one).
 */
export const issues = githubArea({
  name: "issues",
  seed: {
    repositories: {
      issues: z
        .array(
          z.strictObject({
            title: z.string().min(1),
            author: login,
            labels: z.array(z.string().min(1)).default([]),
          }),
        )
        .default([]),
    },
  },
  eachRepository(world, repo, entry, at) {
    const list = repositoryIssues(world, repo);
    entry.issues.forEach((issue, index) => {
      const user = world.account(issue.author);
      if (user?.type !== "User") {
        fail([...at, "issues", index, "author"], `unknown user '${issue.author}'`);
      }
      list.push({
        id: issuesOf(world).nextId.issue++,
        number: list.length + 1,
        repo,
        title: issue.title,
        body: null,
        state: "open",
        state_reason: null,
        user,
        labels: labelsNamed(world, repo, issue.labels),
        comments: [],
        created_at: repo.created_at,
        updated_at: repo.created_at,
        closed_at: null,
        closed_by: null,
      });
    });
  },
  routes: [...issueRoutes, ...pullRoutes],
  permissions: issuePermissions,
});
