import * as z from "zod";
import { check, login, SEEDED_AT, timestamp } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { seededLabels } from "../labels/carried.js";
import { mergeRequestIds, mergeRequestsOf } from "./records.js";
import { mergeRequestRoutes } from "./routes.js";

/**
 * Projects' merge requests and their notes: what GitLab CI's steps read and write (forgeplan ci's
 * sticky plan note, the merge request of a commit an apply looks up), and the labels they carry
 * (the labels area's records, as issues/ holds them). The demo's !1 is forgeplan ci's; !2 carries
 * a label for the labels area's rename to keep.
 */
export const mergeRequests = gitlabArea({
  name: "merge-requests",
  seed: {
    projects: {
      merge_requests: z
        .array(
          z.strictObject({
            /** The merge request's number in its project; the next after the highest if left out. */
            iid: z.number().int().positive().optional(),
            title: z.string().min(1).max(255),
            description: z.string().default(""),
            state: z.enum(["opened", "closed", "merged", "locked"]).default("opened"),
            source_branch: z.string().min(1),
            target_branch: z.string().min(1).default("main"),
            sha: z.string().regex(/^[0-9a-f]{40}$/, "expected a commit SHA of 40 hex digits"),
            merge_commit_sha: z
              .string()
              .regex(/^[0-9a-f]{40}$/)
              .nullable()
              .default(null),
            /** Names of labels the project sees (its own, or a group's above it). */
            labels: z.array(z.string()).default([]),
            author: login,
            created_at: timestamp.default(SEEDED_AT),
          }),
        )
        .default([]),
    },
  },
  demo: {
    projects: [
      {
        id: 1,
        merge_requests: [
          {
            iid: 1,
            title: "Protect the release branch",
            source_branch: "protect-release",
            sha: "4a7c9e2b1d3f5a6c8e0b2d4f6a8c0e2b4d6f8a0c",
            author: "octo-dev",
          },
          {
            iid: 2,
            title: "Paginate the orders listing",
            source_branch: "paginate-orders",
            sha: "c3d5e7f9a1b3c5d7e9f1a3b5c7d9e1f3a5b7c9d1",
            labels: ["enhancement"],
            author: "octo-dev",
          },
        ],
      },
    ],
  },
  build(world, seed) {
    const ids = mergeRequestIds(world);
    seed.projects.forEach((projectSeed, index) => {
      const project = world.seeded.projects[index];
      const listed = projectSeed.merge_requests.length;
      check(project !== undefined || listed === 0, ["projects", index], "no project");
      if (project === undefined) return;
      const own = mergeRequestsOf(project);
      projectSeed.merge_requests.forEach((entry, at) => {
        const path = ["projects", index, "merge_requests", at];
        const iid = entry.iid ?? Math.max(0, ...own.keys()) + 1;
        check(!own.has(iid), [...path, "iid"], `merge request !${iid} is listed twice`);
        const author = world.user(entry.author);
        check(author !== undefined, [...path, "author"], `unknown user '${entry.author}'`);
        const merged = entry.state === "merged";
        own.set(iid, {
          id: ids.next++,
          iid,
          project,
          title: entry.title,
          description: entry.description,
          state: entry.state,
          source_branch: entry.source_branch,
          target_branch: entry.target_branch,
          sha: entry.sha,
          merge_commit_sha: entry.merge_commit_sha,
          squash_commit_sha: null,
          labels: seededLabels(project, entry.labels, [...path, "labels"]),
          author,
          merged_by: merged ? author : null,
          created_at: entry.created_at,
          updated_at: entry.created_at,
          merged_at: merged ? entry.created_at : null,
        });
      });
    });
  },
  routes: mergeRequestRoutes,
});
