import type { SeedPart } from "../../core/seed.js";
import type { worldSeed } from "./seed.js";

/**
 * The world's part of the demo world: its people, the acme organization, the CI App, and four
 * repositories with their own settings and branches. Examples, docs and tests are written against
 * exactly these facts (the other areas' parts add to them), so change them only together with
 * those.
 */
export const worldDemo: SeedPart<typeof worldSeed> = {
  users: [
    { login: "octo-admin", id: 1, name: "Octo Admin", token: "sandbox-admin" },
    { login: "octo-reader", id: 2, name: "Octo Reader", token: "sandbox-reader" },
    { login: "octo-dev", id: 3, name: "Octo Dev", token: "sandbox-dev" },
    { login: "hubot", id: 4, name: "Hubot" },
    { login: "outside-contractor", id: 5, name: null },
    { login: "mona", id: 6, name: "Mona Lisa" },
  ],
  organizations: [
    {
      login: "acme",
      id: 100,
      name: "Acme Corporation",
      owners: ["octo-admin"],
      members: ["octo-reader", "octo-dev"],
      base_permission: "pull",
      custom_repository_roles: [
        {
          id: 1,
          name: "auditor",
          description: "Reads code and its security alerts",
          base_role: "read",
          permissions: ["read_code_scanning", "view_secret_scanning_alerts"],
        },
      ],
    },
  ],
  apps: [
    {
      id: 15368,
      slug: "ci-bot",
      name: "CI Bot",
      owner: "acme",
      description: "Builds and reports the ci/build check",
      events: ["check_run", "push"],
      installations: [
        { id: 31001, account: "acme", permissions: { checks: "write", contents: "read" } },
      ],
    },
  ],
  repositories: [
    {
      full_name: "acme/api",
      id: 1001,
      description: "The public API service",
      allow_squash_merge: true,
      allow_rebase_merge: true,
      allow_merge_commit: true,
      // Its `main` is protected (the branch protection area's part).
      branches: [{ name: "main" }, { name: "release" }],
    },
    {
      full_name: "acme/web",
      id: 1002,
      description: "The web front end",
      allow_squash_merge: true,
      allow_rebase_merge: false,
      allow_merge_commit: true,
      branches: [{ name: "main" }],
      // Renamed in the past: GitHub redirects requests to the old name.
      previous_names: ["website"],
    },
    {
      // Archived: every write to it is refused until it is unarchived.
      full_name: "acme/legacy",
      id: 1004,
      description: "The old monolith",
      archived: true,
      topics: ["monolith"],
      branches: [{ name: "master" }],
      default_branch: "master",
    },
    {
      full_name: "octo-admin/dotfiles",
      id: 1003,
      private: false,
      description: "Shell and editor settings",
      branches: [{ name: "main" }],
    },
  ],
};
