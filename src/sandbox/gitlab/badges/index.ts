import * as z from "zod";
import { check } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { badgeIds, badgesOf } from "./records.js";
import { badgeRoutes } from "./routes.js";

/** Badges of projects and groups (the `badge` kind), each with an instance-wide id. */

const badgeSeed = z.strictObject({
  name: z.string().min(1).nullable().default(null),
  link_url: z.string().min(1),
  image_url: z.string().min(1),
});
const badgesSeed = z.array(badgeSeed).default([]);

export const badges = gitlabArea({
  name: "badges",
  seed: { projects: { badges: badgesSeed }, groups: { badges: badgesSeed } },
  demo: {
    groups: [
      {
        path: "acme",
        badges: [
          {
            name: "pipeline",
            link_url: "https://gitlab.sandbox.test/%{project_path}/-/pipelines",
            image_url:
              "https://gitlab.sandbox.test/%{project_path}/badges/%{default_branch}/pipeline.svg",
          },
        ],
      },
    ],
    projects: [
      {
        id: 1,
        badges: [
          {
            name: "coverage",
            link_url: "https://coverage.sandbox.test/%{project_path}",
            image_url: "https://coverage.sandbox.test/%{project_path}/badge.svg",
          },
        ],
      },
    ],
  },
  build(world, seed) {
    const ids = badgeIds(world);
    const add = (list: ReturnType<typeof badgesOf>, entries: z.output<typeof badgesSeed>) => {
      for (const entry of entries) list.push({ id: ids.next++, ...entry });
    };
    seed.groups.forEach((entry, index) => {
      const group = world.seeded.groups[index];
      if (group !== undefined) add(badgesOf(group), entry.badges);
    });
    seed.projects.forEach((entry, index) => {
      const project = world.seeded.projects[index];
      check(project !== undefined || entry.badges.length === 0, ["projects", index], "no project");
      if (project !== undefined) add(badgesOf(project), entry.badges);
    });
  },
  routes: badgeRoutes,
});
