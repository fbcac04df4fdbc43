import * as z from "zod";
import { fail } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { pagesPermissions } from "./app-permissions.js";
import { pagesOf } from "./records.js";
import { pagesRoutes } from "./routes.js";

/** A repository's GitHub Pages site (the `pages` kind). */
export const pages = githubArea({
  name: "pages",
  seed: {
    repositories: {
      pages: z
        .strictObject({
          build_type: z.enum(["legacy", "workflow"]).default("legacy"),
          source: z
            .strictObject({ branch: z.string(), path: z.enum(["/", "/docs"]).default("/") })
            .nullable()
            .default(null),
          cname: z.string().nullable().default(null),
          https_enforced: z.boolean().default(true),
        })
        .nullable()
        .default(null),
    },
  },
  demo: {
    repositories: [
      {
        full_name: "acme/web",
        pages: {
          build_type: "legacy",
          source: { branch: "main", path: "/docs" },
          cname: null,
          https_enforced: true,
        },
      },
    ],
  },
  eachRepository(_world, repo, entry, at) {
    const site = entry.pages;
    if (site === null) return;
    if (site.build_type === "legacy" && site.source === null)
      fail([...at, "pages", "source"], "a legacy build needs a source");
    if (site.source !== null && !repo.branches.has(site.source.branch)) {
      fail([...at, "pages", "source", "branch"], `branch ${site.source.branch} does not exist`);
    }
    pagesOf(repo).site = { ...site };
  },
  routes: pagesRoutes,
  permissions: pagesPermissions,
});
