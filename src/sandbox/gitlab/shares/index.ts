import * as z from "zod";
import { check } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";
import { sharedWithGroups, sharesOf } from "./records.js";
import { sharesRoutes } from "./routes.js";

/**
 * Projects and groups shared with groups (the `shared_with_groups` kind): the shares, listed in the
 * project's and the group's answer as GitLab lists them (`shared_with_groups`), and their writes.
 * A seed's `shared_with_groups` maps an invited group's full path to its level (10 to 50) and
 * optional end date.
 */
const shareSeed = z
  .record(
    z.string(),
    z.strictObject({
      group_access: z.union(
        [10, 15, 20, 30, 40, 50].map((level) => z.literal(level)) as [
          z.ZodLiteral<number>,
          ...z.ZodLiteral<number>[],
        ],
      ),
      expires_at: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, "expected YEAR-MONTH-DAY")
        .nullable()
        .default(null),
    }),
  )
  .default({});

function seedShares(
  world: GitlabWorld,
  record: Project | Group | undefined,
  written: Record<string, { group_access: number; expires_at: string | null }>,
  at: (string | number)[],
) {
  if (record === undefined) return;
  for (const [path, share] of Object.entries(written)) {
    const group = world.groupsByPath.get(path.toLowerCase());
    check(group !== undefined, [...at, "shared_with_groups", path], `unknown group '${path}'`);
    sharesOf(record).set(group.id, { access: share.group_access, expiresAt: share.expires_at });
  }
}

export const shares = gitlabArea({
  name: "shares",
  seed: {
    groups: { shared_with_groups: shareSeed },
    projects: { shared_with_groups: shareSeed },
  },
  demo: {
    projects: [{ id: 1, shared_with_groups: { partners: { group_access: 30 } } }],
    groups: [
      {
        path: "platform",
        shared_with_groups: { partners: { group_access: 20, expires_at: "2030-12-31" } },
      },
    ],
  },
  build(world, seed) {
    seed.groups.forEach((entry, index) =>
      seedShares(world, world.seeded.groups[index], entry.shared_with_groups, ["groups", index]),
    );
    seed.projects.forEach((entry, index) =>
      seedShares(world, world.seeded.projects[index], entry.shared_with_groups, [
        "projects",
        index,
      ]),
    );
  },
  projectFields: (world, project, simple) =>
    simple ? {} : { shared_with_groups: sharedWithGroups(world, project) },
  groupDetailFields: (world, group) => ({ shared_with_groups: sharedWithGroups(world, group) }),
  routes: sharesRoutes,
});
