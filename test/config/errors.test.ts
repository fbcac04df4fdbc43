import { describe, expect, it } from "vitest";
import { type Files, errorLines, yaml } from "./helpers.js";

interface Case {
  name: string;
  files: Files;
  env?: Record<string, string>;
  errors: string[];
}

/** A file with one repository entry, acme/api, holding `settings` (written from column 0). */
const repo = (settings: string) =>
  `version: 1\nrepositories:\n  - name: acme/api\n${settings
    .trim()
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n")}\n`;

/** The keys `settings` takes, as its unknown-key message lists them. */
const SETTINGS_KEYS =
  "description, homepage, visibility, has_issues, has_projects, has_wiki, is_template, allow_forking, default_branch, rename_default_branch, allow_merge_commit, allow_squash_merge, allow_rebase_merge, allow_auto_merge, delete_branch_on_merge, allow_update_branch, squash_merge_commit_title, squash_merge_commit_message, merge_commit_title, merge_commit_message, web_commit_signoff_required, archived, security_and_analysis, topics, vulnerability_alerts, automated_security_fixes, private_vulnerability_reporting, archived_repositories, create, previously";

const cases: Case[] = [
  // ---- the file itself
  {
    name: "a YAML syntax error",
    files: { "a.yaml": "version: 1\nrepositories: [\n" },
    errors: [
      "a.yaml:2:15: YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ],
  },
  {
    name: "a duplicate key, reported with the rest of the file",
    files: {
      "a.yaml": yaml`
        version: 1
        version: 1
        repositorys: []
      `,
    },
    errors: [
      "a.yaml:2:1: version: duplicate key (first written at line 1)",
      'a.yaml:3:1: repositorys: unknown key "repositorys"; did you mean "repositories"?',
    ],
  },
  {
    name: "an unsupported tag",
    files: { "a.yaml": "version: !!binary aGk=\n" },
    errors: [
      "a.yaml:1:19: version: unsupported tag !!binary; a config holds plain strings, numbers, booleans, null, mappings and lists",
      'a.yaml:1:19: version: expected 1, found the string "hi"',
    ],
  },
  {
    name: "an unknown local tag",
    files: { "a.yaml": "version: 1\nrepositories: !include other.yaml\n" },
    errors: ["a.yaml:2:15: YAML: Unresolved tag: !include"],
  },
  {
    name: "a second document",
    files: { "a.yaml": "version: 1\n---\nversion: 1\n" },
    errors: ["a.yaml:2:1: a file holds one YAML document; put the second one in its own file"],
  },
  {
    name: "an empty file",
    files: { "a.yaml": "# nothing yet\n" },
    errors: ["a.yaml:1:1: the file is empty; expected a mapping that starts with 'version: 1'"],
  },
  {
    name: "a list at the top",
    files: { "a.yaml": "- version: 1\n" },
    errors: ["a.yaml:1:1: expected a mapping, found a list"],
  },
  {
    name: "a key that is not a string",
    files: { "a.yaml": "version: 1\n[a, b]: 1\n" },
    errors: ["a.yaml:2:1: keys must be plain strings"],
  },
  {
    name: "a NUL byte",
    files: { "a.yaml": "version: 1\nre\0positories: []\n" },
    errors: ["a.yaml:2:3: binary content (a NUL byte); expected UTF-8 text"],
  },
  {
    name: "bytes that are not UTF-8",
    files: { "a.yaml": new Uint8Array([...Buffer.from("version: 1\nx: caf"), 0xe9, 0x0a]) },
    errors: ["a.yaml:2:7: invalid UTF-8; the file must be UTF-8 text"],
  },

  // ---- interpolation
  {
    name: "a missing environment variable",
    files: {
      "a.yaml": yaml`
        version: 1
        targets:
          ghe: { type: repository, base_url: "https://\${GHE_HOST}/api/v3" }
      `,
    },
    errors: ["a.yaml:3:38: targets.ghe.base_url: environment variable GHE_HOST is not set"],
  },
  {
    name: "a malformed reference",
    files: {
      "a.yaml": yaml`
        version: 1
        targets:
          ghe: { type: repository, base_url: "https://\${GHE-HOST}/api/v3" }
      `,
    },
    errors: [
      'a.yaml:3:38: targets.ghe.base_url: malformed reference "${GHE-HOST}": write ${NAME} with letters, digits and _ (or $${ for a literal ${)',
    ],
  },
  {
    name: "a literal webhook secret",
    files: {
      "a.yaml": repo(`    webhooks: { hooks: [{ url: "https://ci.example/h", secret: hunter2 }] }`),
    },
    errors: [
      "a.yaml:4:64: repositories[0].webhooks.hooks[0].secret: literal secrets are refused: write ${NAME} and set the environment variable NAME",
    ],
  },
  {
    name: "a secret mixing a literal and a reference",
    files: {
      "a.yaml": repo(
        `    webhooks: { hooks: [{ url: "https://ci.example/h", authorization_header: "Bearer \${TOKEN}" }] }`,
      ),
    },
    env: { TOKEN: "t" },
    errors: [
      "a.yaml:4:78: repositories[0].webhooks.hooks[0].authorization_header: literal secrets are refused: write ${NAME} and set the environment variable NAME",
    ],
  },
  {
    name: "a secret whose variable is not set",
    files: {
      "a.yaml": repo(
        `    webhooks: { hooks: [{ url: "https://ci.example/h", secret: "\${HOOK_SECRET}" }] }`,
      ),
    },
    errors: [
      "a.yaml:4:64: repositories[0].webhooks.hooks[0].secret: environment variable HOOK_SECRET is not set",
    ],
  },
  {
    name: "a secret of the wrong type does not print its value",
    files: {
      "a.yaml": repo(`    webhooks: { hooks: [{ url: "https://ci.example/h", secret: 123456 }] }`),
    },
    errors: [
      "a.yaml:4:64: repositories[0].webhooks.hooks[0].secret: expected a string, found a number",
    ],
  },

  // ---- shape
  {
    name: "a wrong version",
    files: { "a.yaml": "version: 2\n" },
    errors: ["a.yaml:1:10: version: expected 1, found the number 2"],
  },
  {
    name: "a missing version",
    files: { "a.yaml": "repositories: []\n" },
    errors: ["a.yaml:1:1: version: required key is missing (expected 1)"],
  },
  {
    name: "an unknown key far from any known one",
    files: { "a.yaml": "version: 1\nfrobnicate: true\n" },
    errors: [
      'a.yaml:2:1: frobnicate: unknown key "frobnicate"; expected one of: version, targets, defaults, profiles, repositories, project_defaults, project_profiles, projects, removal_limit, organizations, groups, instance, audits',
    ],
  },
  {
    name: "misspelt keys in a branch protection",
    files: {
      "a.yaml": repo(yaml`
          branch_protection:
            main:
              enforce_admin: true
              required_pull_request_reviews: { required_aproving_review_count: 2 }
      `),
    },
    errors: [
      'a.yaml:6:9: repositories[0].branch_protection.main.enforce_admin: unknown key "enforce_admin"; did you mean "enforce_admins"?',
      'a.yaml:7:42: repositories[0].branch_protection.main.required_pull_request_reviews.required_aproving_review_count: unknown key "required_aproving_review_count"; did you mean "required_approving_review_count"?',
    ],
  },
  {
    name: "wrong types, with what was found",
    files: {
      "a.yaml": repo(yaml`
          branch_protection:
            main:
              enforce_admins: "yes"
              required_linear_history: null
              restrictions: none
              required_status_checks: { strict: true, checks: ci/build }
      `),
    },
    errors: [
      'a.yaml:6:25: repositories[0].branch_protection.main.enforce_admins: expected true or false or null, found the string "yes"',
      "a.yaml:7:34: repositories[0].branch_protection.main.required_linear_history: expected true or false, found null",
      'a.yaml:8:23: repositories[0].branch_protection.main.restrictions: expected a mapping or null, found the string "none"',
      'a.yaml:9:57: repositories[0].branch_protection.main.required_status_checks.checks: expected a list, found the string "ci/build"',
    ],
  },
  {
    name: "a required key missing inside a list item",
    files: {
      "a.yaml": repo(yaml`
          branch_protection:
            main:
              required_status_checks: { checks: [{ app_id: 1 }] }
      `),
    },
    errors: [
      "a.yaml:6:44: repositories[0].branch_protection.main.required_status_checks.checks[0].context: required key is missing (expected a string)",
    ],
  },
  {
    name: "approvals out of range",
    files: {
      "a.yaml": repo(yaml`
          branch_protection:
            main: { required_pull_request_reviews: { required_approving_review_count: 7 } }
            dev: { required_pull_request_reviews: { required_approving_review_count: -1 } }
            qa: { required_pull_request_reviews: { required_approving_review_count: 1.5 } }
      `),
    },
    errors: [
      "a.yaml:5:81: repositories[0].branch_protection.main.required_pull_request_reviews.required_approving_review_count: expected at most 6, found the number 7",
      "a.yaml:6:80: repositories[0].branch_protection.dev.required_pull_request_reviews.required_approving_review_count: expected at least 0, found the number -1",
      "a.yaml:7:79: repositories[0].branch_protection.qa.required_pull_request_reviews.required_approving_review_count: expected a whole number, found the number 1.5",
    ],
  },
  {
    name: "wildcard branch names",
    files: {
      "a.yaml": repo(yaml`
          branch_protection:
            "release/*": { enforce_admins: true }
            "v?": null
            "[ab]": null
      `),
    },
    errors: [
      'a.yaml:5:7: repositories[0].branch_protection["release/*"]: branch names cannot hold wildcards (*, ? or [): the service refuses them here; wildcard patterns need the GraphQL API',
      'a.yaml:6:7: repositories[0].branch_protection["v?"]: branch names cannot hold wildcards (*, ? or [): the service refuses them here; wildcard patterns need the GraphQL API',
      'a.yaml:7:7: repositories[0].branch_protection["[ab]"]: branch names cannot hold wildcards (*, ? or [): the service refuses them here; wildcard patterns need the GraphQL API',
    ],
  },
  {
    name: "contexts and checks together",
    files: {
      "a.yaml": repo(yaml`
          branch_protection:
            main:
              required_status_checks: { strict: true, contexts: [ci/build], checks: [{ context: ci/build }] }
      `),
    },
    errors: [
      "a.yaml:6:59: repositories[0].branch_protection.main.required_status_checks.contexts: contexts and checks are both set; contexts is closing down, so list every check under checks",
    ],
  },
  {
    name: "one status-check context listed twice",
    files: {
      "a.yaml": repo(yaml`
          branch_protection:
            main:
              required_status_checks:
                checks: [{ context: ci/build, app_id: -1 }, { context: ci/build, app_id: 15368 }]
      `),
    },
    errors: [
      'a.yaml:7:66: repositories[0].branch_protection.main.required_status_checks.checks[1].context: context "ci/build" is listed twice; the service keeps one check per context',
    ],
  },
  {
    name: "more than 100 users, teams and apps",
    files: {
      "a.yaml": repo(yaml`
          branch_protection:
            main:
              restrictions: { users: [${Array.from({ length: 60 }, (_, i) => `u${i}`).join(", ")}], teams: [] }
              required_pull_request_reviews:
                dismissal_restrictions: { teams: [${Array.from({ length: 30 }, (_, i) => `t${i}`).join(", ")}] }
                bypass_pull_request_allowances: { apps: [${Array.from({ length: 11 }, (_, i) => `a${i}`).join(", ")}] }
      `),
    },
    errors: [
      "a.yaml:6:9: repositories[0].branch_protection.main: 101 users, teams and apps in total (restrictions 60, dismissal_restrictions 30, bypass_pull_request_allowances 11); the service allows at most 100 across these lists",
    ],
  },
  // ---- repository settings: GitHub's request schema and its pairs, checked when loading
  {
    name: "a commit message without its title, and a pair GitHub does not offer",
    files: {
      "a.yaml": repo(`
settings:
  squash_merge_commit_message: BLANK
  merge_commit_title: MERGE_MESSAGE
  merge_commit_message: PR_BODY`),
    },
    errors: [
      'a.yaml:5:36: repositories[0].settings.squash_merge_commit_message: write squash_merge_commit_title beside it: GitHub takes squash_merge_commit_title and squash_merge_commit_message together (its request schema: the title is "Required when using" the message; its settings offer COMMIT_OR_PR_TITLE with COMMIT_MESSAGES, PR_TITLE with BLANK, PR_TITLE with COMMIT_MESSAGES, PR_TITLE with PR_BODY)',
      "a.yaml:7:29: repositories[0].settings.merge_commit_message: merge_commit_title MERGE_MESSAGE with merge_commit_message PR_BODY is not a combination GitHub offers: MERGE_MESSAGE with PR_TITLE, PR_TITLE with BLANK, PR_TITLE with PR_BODY",
    ],
  },
  {
    name: "settings GitHub's request schema lacks, or that settings says another way",
    files: {
      "a.yaml": repo(`
settings:
  visibility: internal
  stargazers_count: 3
  private: true
  descripton: x`),
    },
    errors: [
      "a.yaml:5:19: repositories[0].settings.visibility: visibility internal is refused: GitHub's published request schemas for PATCH /repos/{owner}/{repo} and POST /orgs/{org}/repos accept only public or private, so forgeplan does not send it",
      `a.yaml:6:7: repositories[0].settings.stargazers_count: unknown key "stargazers_count"; forgeplan sends only fields of GitHub's request schema for PATCH /repos/{owner}/{repo} (and topics and the security toggles, which have endpoints of their own); expected one of: ${SETTINGS_KEYS}`,
      'a.yaml:7:7: repositories[0].settings.private: unknown key "private"; write visibility: public or private (GitHub\'s request schema takes either; forgeplan sends visibility)',
      'a.yaml:8:7: repositories[0].settings.descripton: unknown key "descripton"; did you mean "description"?',
    ],
  },
  {
    name: "lifecycle settings on a glob",
    files: {
      "a.yaml": yaml`
        version: 1
        repositories:
          - name: acme/*
            settings: { create: true, visibility: private, previously: [old] }
      `,
    },
    errors: [
      "a.yaml:4:25: repositories[0].settings.create: create is for an entry that names one repository, never a glob",
      "a.yaml:4:64: repositories[0].settings.previously: previously is for an entry that names one repository, never a glob",
    ],
  },
  {
    name: "organization-only settings on a personal repository",
    files: {
      "a.yaml": yaml`
        version: 1
        repositories:
          - name: octo/dotfiles
            owner_type: user
            branch_protection:
              main:
                restrictions: { users: [octo], teams: [] }
                required_pull_request_reviews:
                  dismissal_restrictions: { users: [octo], teams: [core], apps: [bot] }
      `,
    },
    errors: [
      "a.yaml:7:23: repositories[0].branch_protection.main.restrictions: push restrictions are only for organization-owned repositories and owner_type is user; use null",
      "a.yaml:9:44: repositories[0].branch_protection.main.required_pull_request_reviews.dismissal_restrictions.users: dismissal restrictions by users are only for organization-owned repositories and owner_type is user",
      "a.yaml:9:59: repositories[0].branch_protection.main.required_pull_request_reviews.dismissal_restrictions.teams: dismissal restrictions by teams are only for organization-owned repositories and owner_type is user",
    ],
  },
  {
    name: "organization-only settings that reach a personal repository from defaults",
    files: {
      "a.yaml": yaml`
        version: 1
        defaults:
          branch_protection:
            main: { restrictions: { users: [], teams: [release] } }
        repositories:
          - name: octo/dotfiles
            owner_type: user
      `,
    },
    errors: [
      "a.yaml:6:5: repositories[0].branch_protection.main.restrictions: push restrictions are only for organization-owned repositories and owner_type is user; use null (merged from defaults at a.yaml:4)",
    ],
  },
  {
    name: "the actor limit reached by merging defaults and a profile",
    files: {
      "a.yaml": yaml`
        version: 1
        defaults:
          branch_protection:
            main: { restrictions: { users: [${Array.from({ length: 60 }, (_, i) => `u${i}`).join(", ")}], teams: [] } }
        profiles:
          strict:
            branch_protection:
              main: { required_pull_request_reviews: { bypass_pull_request_allowances: { teams: [${Array.from({ length: 41 }, (_, i) => `t${i}`).join(", ")}] } } }
        repositories:
          - name: acme/api
            profiles: [strict]
      `,
    },
    errors: [
      "a.yaml:10:5: repositories[0].branch_protection.main: 101 users, teams and apps in total (restrictions 60, dismissal_restrictions 0, bypass_pull_request_allowances 41); the service allows at most 100 across these lists (merged from profile strict at a.yaml:8)",
    ],
  },
  {
    name: "repository names and excludes",
    files: {
      "a.yaml": yaml`
        version: 1
        repositories:
          - name: api
          - name: acme/api
            exclude: [acme/api-old]
          - name: acme/*
            exclude: [other/legacy]
      `,
    },
    errors: [
      'a.yaml:3:11: repositories[0].name: expected "owner/repo" or a glob over one owner such as "acme/*" or "acme/svc-*", found the string "api"',
      "a.yaml:5:14: repositories[1].exclude: exclude is only for glob names; acme/api names one repository",
      "a.yaml:7:15: repositories[2].exclude[0]: exclude must name repositories of acme, the owner the name selects",
    ],
  },
  {
    name: "webhook fields",
    files: {
      "a.yaml": repo(yaml`
          webhooks:
            mode: strict
            hooks:
              - url: ftp://ci.example/h
                content_type: xml
                config: { url: "https://x.example", insecure_ssl: 0 }
              - url: https://ci.example/h
                secret_version: 2
              - url: https://ci.example/h
      `),
    },
    errors: [
      'a.yaml:5:13: repositories[0].webhooks.mode: expected one of "additive", "authoritative", found the string "strict"',
      'a.yaml:7:16: repositories[0].webhooks.hooks[0].url: expected an http(s) URL such as https://ci.example.com/hook, found the string "ftp://ci.example/h"',
      'a.yaml:8:25: repositories[0].webhooks.hooks[0].content_type: expected one of "json", "form", found the string "xml"',
      'a.yaml:9:21: repositories[0].webhooks.hooks[0].config.url: unknown key "url": the service keeps only url, content_type, secret and insecure_ssl in a hook\'s config (url, content_type and secret have their own keys here)',
      'a.yaml:9:61: repositories[0].webhooks.hooks[0].config.insecure_ssl: expected one of "0", "1", found the number 0',
      "a.yaml:11:27: repositories[0].webhooks.hooks[1].secret_version: secret_version is no longer used: the service keeps no record of which secret was written; send secrets again with 'forgeplan apply --rotate-secrets'",
    ],
  },
  {
    name: "webhook rules checked after the shape",
    files: {
      "a.yaml": repo(yaml`
          webhooks:
            hooks:
              - url: https://ci.example/h
              - url: https://ci.example/h
              - { url: "https://other.example/h", id: 4 }
              - { url: "https://third.example/h", id: 4 }
      `),
    },
    errors: [
      "a.yaml:7:16: repositories[0].webhooks.hooks[1].url: another hook of this repository has the same url; hooks may share a url only when each is pinned by id (line 6)",
      "a.yaml:9:49: repositories[0].webhooks.hooks[3].id: another hook of this repository has the same id (line 8)",
    ],
  },
  {
    name: "webhooks sharing a url: each pinned by id, with events that do not overlap",
    files: {
      "a.yaml": repo(yaml`
          webhooks:
            hooks:
              - { url: "https://ci.example/h", id: 3, events: [push] }
              - { url: "https://ci.example/h", id: 7, events: [issues, release] }
              - { url: "https://ci.example/h", id: 8 }
              - { url: "https://ci.example/h", id: 9, events: [pull_request, release] }
              - { url: "https://all.example/h", id: 10, events: ["*"] }
              - { url: "https://all.example/h", id: 11, events: [push] }
              - { url: "https://ci.example/h" }
      `),
    },
    errors: [
      "a.yaml:9:57: repositories[0].webhooks.hooks[3].events: another hook of this repository has the same url and some of these events (* is every event); the service refuses two such hooks (line 7)",
      "a.yaml:11:59: repositories[0].webhooks.hooks[5].events: another hook of this repository has the same url and some of these events (* is every event); the service refuses two such hooks (line 10)",
      "a.yaml:12:18: repositories[0].webhooks.hooks[6].url: another hook of this repository has the same url; hooks may share a url only when each is pinned by id (line 6)",
    ],
  },
  {
    name: "invitation audit fields",
    files: {
      "a.yaml": repo(yaml`
          invitations: { allowed_invitees: ["octo dev"], max_age_days: 0, report_expired: "no" }
      `),
    },
    errors: [
      'a.yaml:4:39: repositories[0].invitations.allowed_invitees[0]: expected a login or a glob such as octo-*, found the string "octo dev"',
      "a.yaml:4:66: repositories[0].invitations.max_age_days: expected more than 0, found the number 0",
      'a.yaml:4:85: repositories[0].invitations.report_expired: expected true or false, found the string "no"',
    ],
  },
  {
    name: "clean-up entries",
    files: {
      "a.yaml": yaml`
        version: 1
        projects:
          - project: acme
            boards_absent: [{ name: Legacy, id: 2 }, {}]
          - project: acme/web
            boards_absent: []
        groups:
          - group: 0
            epic_links_absent:
              - { epic: 1 }
              - { link_id: 1, related: 2 }
              - { epic: 1, related: 2, related_grup: partners }
              - { link_id: 3, related_group: partners }
      `,
    },
    errors: [
      'a.yaml:3:14: projects[0].project: expected a numeric id, a full path such as "acme/api", or a glob over a group\'s projects such as "acme/*" or "acme/**", found the string "acme"',
      "a.yaml:4:21: projects[0].boards_absent[0]: give exactly one of name or id",
      "a.yaml:4:46: projects[0].boards_absent[1]: give exactly one of name or id",
      "a.yaml:6:20: projects[1].boards_absent: expected at least 1 item, found none",
      "a.yaml:8:12: groups[0].group: expected more than 0, found the number 0",
      "a.yaml:10:9: groups[0].epic_links_absent[0]: give epic and related (the pair of epics), or link_id",
      "a.yaml:11:9: groups[0].epic_links_absent[1]: give either the pair of epics (epic, related) or link_id (optionally with epic), not both",
      'a.yaml:12:32: groups[0].epic_links_absent[2].related_grup: unknown key "related_grup"; did you mean "related_group"?',
      "a.yaml:13:9: groups[0].epic_links_absent[3]: related_group needs related",
    ],
  },
  {
    name: "audits",
    files: {
      "a.yaml": yaml`
        version: 1
        audits:
          gists: { allow_public: false, since: 2026-01-01 }
          migrations:
            - { id: 1 }
            - { org: acme, user: true, id: 2 }
            - { user: false, id: 3 }
            - { org: acme, id: 4, state: done }
            - { org: acme, id: 5, repositories: [api] }
      `,
    },
    errors: [
      'a.yaml:3:40: audits.gists.since: expected a UTC time such as 2026-01-01T00:00:00Z, found the string "2026-01-01"',
      "a.yaml:5:7: audits.migrations[0]: give exactly one of org (an organization migration) or user: true (your own migration)",
      "a.yaml:6:7: audits.migrations[1]: give exactly one of org (an organization migration) or user: true (your own migration)",
      "a.yaml:7:15: audits.migrations[2].user: expected true, found false",
      'a.yaml:8:34: audits.migrations[3].state: expected one of "pending", "exporting", "exported", "failed" or a list, found the string "done"',
      'a.yaml:9:42: audits.migrations[4].repositories[0]: expected "owner/repo", found the string "api"',
    ],
  },

  // ---- targets
  {
    name: "target definitions",
    files: {
      "a.yaml": yaml`
        version: 1
        targets:
          github: { type: repository, token: ghp_abc }
          ghe: { type: forge, base_url: "api.example.com", token_env: "MY-TOKEN" }
      `,
    },
    errors: [
      "a.yaml:3:38: targets.github.token: inline tokens are refused: put the token in an environment variable and name it with token_env",
      'a.yaml:4:16: targets.ghe.type: expected one of "github", "gitlab", "repository", "planning", found the string "forge"',
      'a.yaml:4:33: targets.ghe.base_url: expected an http(s) URL such as https://api.github.com, found the string "api.example.com"',
      'a.yaml:4:63: targets.ghe.token_env: expected an environment variable name such as GITHUB_TOKEN, found the string "MY-TOKEN"',
    ],
  },
  {
    name: "target references",
    files: {
      "a.yaml": yaml`
        version: 1
        targets:
          github: { type: repository }
          ghe: { type: repository, base_url: "https://ghe.example/api/v3" }
          gitlab: { type: planning }
        repositories:
          - { name: acme/api }
          - { name: acme/web, target: gihub }
          - { name: acme/ops, target: gitlab }
        projects:
          - { project: 1, target: ghe, boards_absent: [{ id: 1 }] }
      `,
    },
    errors: [
      "a.yaml:7:5: repositories[0]: several GitHub targets are defined (github, ghe); choose one with target:",
      'a.yaml:8:31: repositories[1].target: unknown target "gihub"; did you mean "github"?',
      'a.yaml:9:31: repositories[2].target: target "gitlab" is a GitLab target; this needs a GitHub target',
      'a.yaml:11:27: projects[0].target: target "ghe" is a GitHub target; this needs a GitLab target',
    ],
  },
  {
    name: "no target of the kind",
    files: {
      "a.yaml": yaml`
        version: 1
        targets:
          github: { type: repository }
        groups:
          - { group: acme, epic_links_absent: [{ link_id: 1 }] }
      `,
    },
    errors: [
      "a.yaml:5:5: groups[0]: no GitLab target is defined; add one under targets (type: gitlab)",
    ],
  },

  // ---- profiles
  {
    name: "profile references",
    files: {
      "a.yaml": yaml`
        version: 1
        profiles:
          strict: {}
        repositories:
          - { name: acme/api, profiles: [strickt, strict, strict] }
      `,
    },
    errors: [
      'a.yaml:5:34: repositories[0].profiles[0]: unknown profile "strickt"; did you mean "strict"?',
      'a.yaml:5:51: repositories[0].profiles[2]: profile "strict" is listed twice',
    ],
  },

  // ---- the same thing defined twice
  {
    name: "a target, a profile and a default in two files",
    files: {
      "a.yaml": yaml`
        version: 1
        targets: { github: { type: repository } }
        profiles: { strict: {} }
        defaults:
          branch_protection: { main: { enforce_admins: true } }
      `,
      "b.yaml": yaml`
        version: 1
        targets: { github: { type: repository } }
        profiles: { strict: {} }
        defaults:
          branch_protection: { main: null }
          invitations: { max_age_days: 3 }
      `,
    },
    errors: [
      'b.yaml:2:20: targets.github: target "github" is also defined at a.yaml:2 (targets.github); define each target once',
      'b.yaml:3:21: profiles.strict: profile "strict" is also defined at a.yaml:3 (profiles.strict); define each profile once',
      "b.yaml:5:30: defaults.branch_protection.main: also set in the defaults at a.yaml:5 (defaults.branch_protection.main.enforce_admins); write each default in one file",
    ],
  },
  {
    name: "one branch protection in two files",
    files: {
      "a.yaml": repo("    branch_protection: { main: { enforce_admins: true } }"),
      "b.yaml": yaml`
        version: 1
        repositories:
          - name: ACME/api
            branch_protection: { main: { enforce_admins: false } }
      `,
    },
    errors: [
      "b.yaml:4:32: repositories[0].branch_protection.main: the protection of branch main of acme/api is also defined at a.yaml:4 (repositories[0].branch_protection.main); define it in one place",
    ],
  },
  {
    name: "hook lists in two entries of one repository, additive or authoritative",
    files: {
      "a.yaml": yaml`
        version: 1
        repositories:
          - name: acme/api
            webhooks: { hooks: [{ url: "https://ci.example/h" }] }
          - name: acme/api
            webhooks: { hooks: [{ url: "https://ci.example/h" }] }
          - name: acme/web
            webhooks: { mode: authoritative, hooks: [{ url: "https://ci.example/h" }] }
          - name: acme/web
            webhooks: { hooks: [{ url: "https://chat.example/h" }] }
      `,
    },
    errors: [
      // A list replaces the list before it, so two lists of one repository would depend on their order.
      "a.yaml:6:15: repositories[1].webhooks: the webhook list of acme/api is also defined at a.yaml:4 (repositories[0].webhooks); define it in one place",
      "a.yaml:10:15: repositories[3].webhooks: the webhook list of acme/web is also defined at a.yaml:8 (repositories[2].webhooks); define it in one place",
    ],
  },
  {
    name: "one invitation audit in two entries of one glob",
    files: {
      "a.yaml": yaml`
        version: 1
        repositories:
          - { name: acme/*, invitations: { max_age_days: 30 } }
          - { name: acme/*, invitations: { max_age_days: 60 } }
      `,
    },
    errors: [
      "a.yaml:4:34: repositories[1].invitations: the invitation audit of acme/* is also defined at a.yaml:3 (repositories[0].invitations); define it in one place",
    ],
  },
  {
    name: "clean-ups and audits listed twice",
    files: {
      "a.yaml": yaml`
        version: 1
        projects:
          - { project: acme/api, boards_absent: [{ name: Legacy }, { id: 2 }] }
        groups:
          - { group: acme, epic_links_absent: [{ epic: 1, related: 2 }, { link_id: 9 }] }
        audits:
          gists: { allow_public: false }
          migrations: [{ org: acme, id: 2 }]
      `,
      "b.yaml": yaml`
        version: 1
        projects:
          - { project: ACME/API, boards_absent: [{ name: Legacy }, { id: 2 }] }
        groups:
          - { group: acme, epic_links_absent: [{ epic: 2, related: 1 }, { link_id: 9 }] }
        audits:
          gists: { allow_public: true }
          migrations: [{ org: Acme, id: 2 }]
      `,
    },
    errors: [
      "b.yaml:3:41: projects[0].boards_absent: the boards_absent list of acme/api is also defined at a.yaml:3 (projects[0].boards_absent); define it in one place",
      "b.yaml:5:40: groups[0].epic_links_absent[0]: related-epic link between epics 1 and 2 of group acme is also listed at a.yaml:5 (groups[0].epic_links_absent[0]); list it once",
      "b.yaml:5:65: groups[0].epic_links_absent[1]: related-epic link id 9 of group acme is also listed at a.yaml:5 (groups[0].epic_links_absent[1]); list it once",
      "b.yaml:7:10: audits.gists: the gist audit of target github is also listed at a.yaml:7 (audits.gists); list it once",
      "b.yaml:8:16: audits.migrations[0]: the audit of migration 2 of organization acme is also listed at a.yaml:8 (audits.migrations[0]); list it once",
    ],
  },
];

describe("configuration errors", () => {
  it.each(cases)("$name", ({ files, env, errors }) => {
    expect(errorLines(files, env)).toEqual(errors);
  });

  it("names a missing file, with a hint for the default name", () => {
    expect(errorLines({ "forgeplan.yaml": undefined as unknown as string })).toEqual([
      "forgeplan.yaml:1:1: cannot read the file: no such file (create it, or name files with -c)",
    ]);
    expect(errorLines({ "other.yaml": undefined as unknown as string })).toEqual([
      "other.yaml:1:1: cannot read the file: no such file",
    ]);
  });
});
