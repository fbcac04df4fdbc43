import * as z from "zod";
import { check, login, maxOf, timestamp } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { invitationPermissions } from "./app-permissions.js";
import { invitationIds, invitationsOf } from "./records.js";
import { invitationRoutes } from "./routes.js";

/** A repository's invitations to collaborate (the `invitation` kind's clean-ups read them). */
export const invitations = githubArea({
  name: "invitations",
  seed: {
    repositories: {
      invitations: z
        .array(
          z.strictObject({
            id: z.number().int().positive(),
            invitee: login,
            inviter: login,
            permissions: z.enum(["read", "write", "admin", "triage", "maintain"]),
            created_at: timestamp,
            expired: z.boolean().default(false),
          }),
        )
        .default([]),
    },
  },
  demo: {
    repositories: [
      {
        full_name: "acme/api",
        invitations: [
          {
            id: 1,
            invitee: "hubot",
            inviter: "octo-admin",
            permissions: "write",
            created_at: "2026-01-05T10:00:00Z",
          },
          {
            id: 2,
            invitee: "octo-dev",
            inviter: "octo-admin",
            permissions: "read",
            created_at: "2026-11-01T09:00:00Z",
          },
          {
            id: 3,
            invitee: "outside-contractor",
            inviter: "octo-admin",
            permissions: "admin",
            created_at: "2026-06-01T12:00:00Z",
            expired: true,
          },
        ],
      },
    ],
  },
  build(world, seed) {
    const ids = new Set<number>();
    seed.repositories.forEach((repoSeed, index) => {
      const repo = world.seeded.repositories[index];
      if (repo === undefined) return;
      const path = ["repositories", index];
      repoSeed.invitations.forEach((item, at) => {
        const where = [...path, "invitations", at];
        const invitee = world.account(item.invitee);
        const inviter = world.account(item.inviter);
        check(invitee?.type === "User", [...where, "invitee"], `unknown user '${item.invitee}'`);
        check(inviter?.type === "User", [...where, "inviter"], `unknown user '${item.inviter}'`);
        invitationsOf(repo).set(item.id, { ...item, invitee, inviter });
      });
      for (const id of invitationsOf(repo).keys()) {
        check(!ids.has(id), [...path, "invitations"], `invitation id ${id} is used twice`);
        ids.add(id);
      }
    });
    invitationIds(world).next = maxOf(ids) + 1;
  },
  routes: invitationRoutes,
  permissions: invitationPermissions,
});
