import { z } from "zod";
import { check, login } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { membershipExpiry } from "../world/records.js";
import { membersRoutes } from "./routes.js";

/**
 * Members of groups and projects (the `members` kind): GitLab's members writes and the user
 * look-up, over the world's memberships. The seed's `member_expiry` gives direct memberships an
 * end date (`YEAR-MONTH-DAY`); the world's `members` gives the memberships themselves.
 */
const expiry = z
  .record(login, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YEAR-MONTH-DAY"))
  .default({});

export const members = gitlabArea({
  name: "members",
  seed: {
    groups: { member_expiry: expiry },
    projects: { member_expiry: expiry },
  },
  demo: {
    // acme/api: direct members of several levels beside the owners it inherits from acme
    // (octo-admin), one raising an inherited level (octo-reader, Guest in acme) and one that ends.
    projects: [
      {
        id: 1,
        members: { mona: "maintainer", "octo-reader": "reporter", hubot: "developer" },
        member_expiry: { hubot: "2030-06-30" },
      },
    ],
  },
  build(world, seed) {
    const expiries = [
      ...seed.groups.map((entry, index) => ({
        record: world.seeded.groups[index],
        entry,
        at: ["groups", index] as (string | number)[],
      })),
      ...seed.projects.map((entry, index) => ({
        record: world.seeded.projects[index],
        entry,
        at: ["projects", index] as (string | number)[],
      })),
    ];
    for (const { record, entry, at } of expiries) {
      if (record === undefined) continue;
      for (const [username, date] of Object.entries(entry.member_expiry)) {
        const user = world.user(username);
        check(
          user !== undefined && record.members.has(user.id),
          [...at, "member_expiry", username],
          `'${username}' is no direct member here`,
        );
        membershipExpiry(record).set(user.id, date);
      }
    }
  },
  routes: membersRoutes,
});
