import * as z from "zod";
import { check, login, timestamp } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { gistsOf } from "./records.js";
import { gistRoutes } from "./routes.js";

const gistFile = z.union([
  z.string(),
  z.strictObject({ content: z.string(), language: z.string() }),
]);

/** Users' gists (the `gist` audit reads them); an account's profile counts them. */
export const gists = githubArea({
  name: "gists",
  seed: {
    gists: {
      id: z.string().regex(/^[0-9a-f]{8,40}$/, "expected a hexadecimal gist id"),
      owner: login,
      public: z.boolean(),
      description: z.string().nullable().default(null),
      files: z.record(z.string(), gistFile),
      created_at: timestamp,
      updated_at: timestamp,
    },
  },
  demo: {
    gists: [
      {
        id: "a1b2c3d4e5f60718293a",
        owner: "octo-admin",
        public: true,
        description: "Release checklist",
        files: { "release.md": "# Release\n\n1. Tag\n2. Announce\n" },
        created_at: "2026-02-01T10:00:00Z",
        updated_at: "2026-02-10T10:00:00Z",
      },
      {
        id: "b2c3d4e5f60718293a4b",
        owner: "octo-admin",
        public: false,
        description: "Staging notes",
        files: { "notes.txt": "staging runs on the second cluster\n" },
        created_at: "2026-03-01T10:00:00Z",
        updated_at: "2026-03-15T10:00:00Z",
      },
      {
        id: "c3d4e5f60718293a4b5c",
        owner: "octo-admin",
        public: false,
        description: null,
        files: { "deploy.sh": { content: "#!/bin/sh\nmake deploy\n", language: "Shell" } },
        created_at: "2026-04-01T10:00:00Z",
        updated_at: "2026-04-02T10:00:00Z",
      },
      {
        id: "d4e5f60718293a4b5c6d",
        owner: "octo-dev",
        public: true,
        description: "Handy git aliases",
        files: { ".gitconfig": "[alias]\n  st = status\n" },
        created_at: "2026-02-05T10:00:00Z",
        updated_at: "2026-02-05T10:00:00Z",
      },
      {
        id: "e5f60718293a4b5c6d7e",
        owner: "octo-dev",
        public: true,
        description: "Benchmark results",
        files: { "bench.json": '{"rps": 1200}\n' },
        created_at: "2026-05-01T10:00:00Z",
        updated_at: "2026-05-20T10:00:00Z",
      },
      {
        id: "f60718293a4b5c6d7e8f",
        owner: "hubot",
        public: true,
        description: "Chat-ops commands",
        files: { "commands.md": "- deploy\n- rollback\n" },
        created_at: "2026-01-20T10:00:00Z",
        updated_at: "2026-06-01T10:00:00Z",
      },
    ],
  },
  build(world, seed) {
    const all = gistsOf(world);
    seed.gists.forEach((gistSeed, index) => {
      const owner = world.account(gistSeed.owner);
      check(owner?.type === "User", ["gists", index, "owner"], `unknown user '${gistSeed.owner}'`);
      const files = new Map(
        Object.entries(gistSeed.files).map(([name, file]) => [
          name,
          typeof file === "string" ? { content: file, language: null } : file,
        ]),
      );
      const value = { ...gistSeed, owner, files };
      all.all.push(value);
      const list = all.byOwner.get(owner.id);
      if (list) list.push(value);
      else all.byOwner.set(owner.id, [value]);
    });
  },
  profileCounts(world, account) {
    const owned = gistsOf(world).byOwner.get(account.id) ?? [];
    return {
      public_gists: owned.filter((gist) => gist.public).length,
      private_gists: owned.filter((gist) => !gist.public).length,
    };
  },
  routes: gistRoutes,
});
