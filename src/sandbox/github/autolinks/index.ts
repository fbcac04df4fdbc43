import * as z from "zod";
import { fail } from "../../core/seed.js";
import { attached } from "../../core/attached.js";
import { githubArea } from "../area.js";
import type { GithubWorld } from "../world/records.js";
import { autolinkPermissions } from "./app-permissions.js";
import { autolinkIds, autolinksOf } from "./records.js";
import { autolinkProblems, autolinkRoutes, autolinkWithPrefix } from "./routes.js";

/** The autolink ids a seed gave, unique across the world. */
const seededIds = attached((_world: GithubWorld) => new Set<number>());

/** A repository's autolink references (the `autolink` kind). */
export const autolinks = githubArea({
  name: "autolinks",
  seed: {
    repositories: {
      autolinks: z
        .array(
          z.strictObject({
            id: z.number().int().positive(),
            key_prefix: z.string().min(1),
            url_template: z.string().min(1),
            is_alphanumeric: z.boolean().default(true),
          }),
        )
        .default([]),
    },
  },
  demo: {
    repositories: [
      {
        full_name: "acme/api",
        autolinks: [
          {
            id: 1,
            key_prefix: "JIRA-",
            url_template: "https://jira.acme.example/browse/JIRA-<num>",
            is_alphanumeric: false,
          },
        ],
      },
    ],
  },
  eachRepository(world, repo, entry, at) {
    const ids = seededIds(world);
    const next = autolinkIds(world);
    entry.autolinks.forEach((autolink, index) => {
      const where = [...at, "autolinks", index];
      if (ids.has(autolink.id)) fail([...where, "id"], `autolink id ${autolink.id} is used twice`);
      ids.add(autolink.id);
      next.next = Math.max(next.next, autolink.id + 1);
      const problems = autolinkProblems(autolink);
      if (problems.length > 0)
        fail(where, problems.map((problem) => problem.message ?? problem.code).join("; "));
      if (autolinkWithPrefix(repo, autolink.key_prefix) !== undefined) {
        fail([...where, "key_prefix"], `key prefix '${autolink.key_prefix}' is used twice`);
      }
      autolinksOf(repo).set(autolink.id, { ...autolink, updated_at: repo.created_at });
    });
  },
  routes: autolinkRoutes,
  permissions: autolinkPermissions,
});
