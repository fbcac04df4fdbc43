import type { WorldSeedInput } from "./schema.js";

/**
 * The demo world: the default seed of every sandbox. Examples, docs and tests are written against
 * exactly these facts, so change them only together with those.
 */
export const demoWorld: WorldSeedInput = {
  users: [
    { login: "octo-admin", id: 1, name: "Octo Admin", token: "sandbox-admin" },
    { login: "octo-reader", id: 2, name: "Octo Reader", token: "sandbox-reader" },
    { login: "octo-dev", id: 3, name: "Octo Dev", token: "sandbox-dev" },
    { login: "hubot", id: 4, name: "Hubot" },
    { login: "outside-contractor", id: 5, name: null },
  ],
  organizations: [
    {
      login: "acme",
      id: 100,
      name: "Acme Corporation",
      owners: ["octo-admin"],
      members: ["octo-reader", "octo-dev"],
      base_permission: "pull",
      teams: [
        { slug: "platform", id: 1, name: "Platform", description: "Runs the build platform" },
        { slug: "release-managers", id: 2, name: "Release managers", description: null },
      ],
      rulesets: [
        {
          id: 1,
          name: "acme baseline",
          target: "branch",
          enforcement: "active",
          conditions: {
            ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] },
            repository_name: { include: ["~ALL"], exclude: [], protected: false },
          },
          rules: [{ type: "deletion" }, { type: "non_fast_forward" }],
          bypass_actors: [{ actor_type: "OrganizationAdmin", bypass_mode: "always" }],
        },
      ],
      custom_properties: [
        {
          property_name: "team",
          value_type: "string",
          description: "The team that owns the repository",
        },
        {
          property_name: "tier",
          value_type: "single_select",
          required: true,
          default_value: "standard",
          allowed_values: ["critical", "standard"],
          description: "How critical the service is",
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
      collaborators: { "octo-dev": "push" },
      teams: { platform: "push", "release-managers": "maintain" },
      recent_checks: { "ci/build": 15368 },
      branches: [
        {
          name: "main",
          protection: {
            required_status_checks: {
              strict: true,
              checks: [{ context: "ci/build", app_id: 15368 }],
            },
            enforce_admins: false,
            required_pull_request_reviews: {
              dismiss_stale_reviews: true,
              require_code_owner_reviews: false,
              required_approving_review_count: 1,
              require_last_push_approval: false,
            },
            restrictions: null,
            required_signatures: false,
          },
        },
        { name: "release" },
      ],
      hooks: [
        {
          id: 1,
          config: {
            url: "https://ci.acme.example/hooks/forge",
            content_type: "json",
            secret: "sandbox-webhook-secret",
          },
          events: ["push", "pull_request"],
          active: true,
          branch_filter: "*",
          created_at: "2026-01-03T08:00:00Z",
          updated_at: "2026-01-03T08:00:00Z",
        },
        {
          id: 2,
          config: { url: "https://chat.acme.example/notify", content_type: "json" },
          events: ["issues", "issue_comment"],
          active: true,
          created_at: "2026-01-04T08:00:00Z",
          updated_at: "2026-01-04T08:00:00Z",
        },
      ],
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
      rulesets: [
        {
          id: 2,
          name: "release tags",
          target: "tag",
          enforcement: "active",
          conditions: { ref_name: { include: ["refs/tags/v*"], exclude: [] } },
          rules: [
            { type: "deletion" },
            { type: "update", parameters: { update_allows_fetch_and_merge: false } },
          ],
          bypass_actors: [{ actor_id: 2, actor_type: "Team", bypass_mode: "always" }],
        },
      ],
      custom_properties: { team: "platform", tier: "critical" },
      // GitHub's default labels, and one the demo renames.
      labels: [
        { name: "bug", color: "d73a4a", description: "Something isn't working", default: true },
        {
          name: "documentation",
          color: "0075ca",
          description: "Improvements or additions to documentation",
          default: true,
        },
        {
          name: "duplicate",
          color: "cfd3d7",
          description: "This issue or pull request already exists",
          default: true,
        },
        {
          name: "enhancement",
          color: "a2eeef",
          description: "New feature or request",
          default: true,
        },
        {
          name: "good first issue",
          color: "7057ff",
          description: "Good for newcomers",
          default: true,
        },
        {
          name: "help wanted",
          color: "008672",
          description: "Extra attention is needed",
          default: true,
        },
        { name: "invalid", color: "e4e669", description: "This doesn't seem right", default: true },
        {
          name: "question",
          color: "d876e3",
          description: "Further information is requested",
          default: true,
        },
        {
          name: "wontfix",
          color: "ffffff",
          description: "This will not be worked on",
          default: true,
        },
        { name: "needs-triage", color: "fbca04", description: "Not looked at yet" },
      ],
      environments: [
        { name: "staging", deployment_branch_policy: { protected_branches: true } },
        {
          name: "production",
          wait_timer: 30,
          prevent_self_review: true,
          reviewers: { users: ["octo-admin"], teams: ["release-managers"] },
          deployment_branch_policy: {
            custom: [
              { name: "main", type: "branch" },
              { name: "v*", type: "tag" },
            ],
          },
        },
      ],
      autolinks: [
        {
          id: 1,
          key_prefix: "JIRA-",
          url_template: "https://jira.acme.example/browse/JIRA-<num>",
          is_alphanumeric: false,
        },
      ],
    },
    {
      full_name: "acme/web",
      id: 1002,
      description: "The web front end",
      allow_squash_merge: true,
      allow_rebase_merge: false,
      allow_merge_commit: true,
      collaborators: { "octo-dev": "push" },
      teams: { platform: "push" },
      branches: [{ name: "main" }],
      custom_properties: { team: "web" },
    },
    {
      full_name: "octo-admin/dotfiles",
      id: 1003,
      private: false,
      description: "Shell and editor settings",
      branches: [{ name: "main" }],
    },
  ],
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
  migrations: [
    {
      id: 1,
      owner: "octo-admin",
      state: "exported",
      lock_repositories: false,
      repositories: ["octo-admin/dotfiles", "acme/web"],
      created_at: "2026-03-01T12:00:00Z",
      updated_at: "2026-03-01T12:30:00Z",
    },
    {
      id: 2,
      owner: "acme",
      state: "exported",
      lock_repositories: false,
      repositories: ["acme/api", "acme/web"],
      created_at: "2026-04-01T12:00:00Z",
      updated_at: "2026-04-01T13:00:00Z",
    },
  ],
  groups: [
    {
      id: 1,
      path: "acme",
      name: "Acme",
      members: { "octo-admin": "owner", "octo-reader": "guest", "octo-dev": "developer" },
      epics: [
        { iid: 1, title: "Platform v2", author: "octo-admin" },
        { iid: 2, title: "Auth revamp", author: "octo-admin" },
        { iid: 3, title: "Observability", author: "octo-dev" },
      ],
    },
    {
      id: 2,
      path: "partners",
      name: "Partners",
      members: { "octo-admin": "owner" },
      epics: [{ iid: 1, title: "Partner API", author: "octo-admin" }],
    },
  ],
  projects: [
    {
      id: 1,
      group: "acme",
      path: "api",
      name: "api",
      description: "The public API service",
      boards: [
        { id: 1, name: "Development" },
        { id: 2, name: "Legacy triage" },
      ],
    },
    {
      id: 2,
      group: "acme",
      path: "web",
      name: "web",
      description: "The web front end",
      boards: [{ id: 3, name: "Web" }],
    },
  ],
  epic_links: [
    { id: 1, source: "acme&1", target: "acme&2", link_type: "relates_to" },
    { id: 2, source: "acme&3", target: "partners&1", link_type: "relates_to" },
  ],
};
