import * as z from "zod";
import { check, login, SEEDED_AT, timestamp } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { seededLabels } from "../labels/carried.js";
import { issueIds, issuesOf } from "./records.js";
import { issueRoutes } from "./routes.js";

/**
 * Projects' issues and their notes: what GitLab CI's scheduled drift check opens, edits and closes
 * (forgeplan ci), and the labels they carry (the labels area's records, which it counts and takes
 * off a deleted label). A seed names labels the project sees; the areas before this one (labels)
 * have made them.
 */
export const issues = gitlabArea({
  name: "issues",
  seed: {
    projects: {
      issues: z
        .array(
          z.strictObject({
            /** The issue's number in its project; the next after the highest when left out. */
            iid: z.number().int().positive().optional(),
            title: z.string().min(1).max(255),
            description: z.string().default(""),
            state: z.enum(["opened", "closed"]).default("opened"),
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
        issues: [
          { title: "Login fails on Safari", labels: ["bug", "needs-triage"], author: "octo-dev" },
          { title: "Paginate the orders listing", labels: ["enhancement"], author: "octo-dev" },
          {
            title: "Crash on start",
            state: "closed",
            labels: ["bug", "legacy"],
            author: "octo-dev",
          },
        ],
      },
      {
        id: 3,
        issues: [
          { title: "Rotate the runners' certificates", labels: ["infra", "bug"], author: "mona" },
        ],
      },
    ],
  },
  build(world, seed) {
    const ids = issueIds(world);
    seed.projects.forEach((projectSeed, index) => {
      const project = world.seeded.projects[index];
      check(
        project !== undefined || projectSeed.issues.length === 0,
        ["projects", index],
        "no project",
      );
      if (project === undefined) return;
      const own = issuesOf(project);
      projectSeed.issues.forEach((entry, at) => {
        const path = ["projects", index, "issues", at];
        const iid = entry.iid ?? Math.max(0, ...own.keys()) + 1;
        check(!own.has(iid), [...path, "iid"], `issue #${iid} is listed twice`);
        const author = world.user(entry.author);
        check(author !== undefined, [...path, "author"], `unknown user '${entry.author}'`);
        const closed = entry.state === "closed";
        own.set(iid, {
          id: ids.next++,
          iid,
          project,
          title: entry.title,
          description: entry.description,
          state: entry.state,
          labels: seededLabels(project, entry.labels, [...path, "labels"]),
          author,
          created_at: entry.created_at,
          updated_at: entry.created_at,
          // A seeded closed issue was closed by its author when it was made.
          closed_at: closed ? entry.created_at : null,
          closed_by: closed ? author : null,
        });
      });
    });
  },
  routes: issueRoutes,
});
