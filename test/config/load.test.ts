import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { matchesGlob, selectsRepository } from "../../src/config/index.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import { Secret } from "../../src/core/secret.js";
import { settingsOf } from "../../src/engine/expand.js";
import type { Webhooks } from "../../src/resources/webhook/settings.js";
import { stateOf, yaml } from "./helpers.js";

describe("merging defaults, profiles and entries", () => {
  const files = {
    "a.yaml": yaml`
      version: 1
      defaults:
        branch_protection:
          main:
            enforce_admins: true
            required_status_checks: { strict: true, checks: [{ context: ci/build }] }
            required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true }
          release: null
        invitations: { max_age_days: 30 }
      profiles:
        two-reviews:
          branch_protection:
            main: { required_pull_request_reviews: { required_approving_review_count: 2 } }
        no-checks:
          branch_protection:
            main: { required_status_checks: null }
      repositories:
        - name: acme/api
          profiles: [two-reviews, no-checks]
          branch_protection:
            main: { required_status_checks: { checks: [{ context: ci/test }] } }
            release: { lock_branch: true }
        - name: acme/web
          profiles: [no-checks, two-reviews]
          branch_protection:
            main: null
    `,
  };
  const [api, web] = stateOf(files).repositories;

  it("applies defaults, then profiles in order, then the entry", () => {
    expect(api!.settings.branch_protection).toEqual({
      main: {
        enforce_admins: true,
        // no-checks set null, then the entry's mapping replaced the null: strict from defaults is gone.
        required_status_checks: { checks: [{ context: "ci/test" }] },
        required_pull_request_reviews: {
          required_approving_review_count: 2,
          dismiss_stale_reviews: true,
        },
      },
      // The entry's mapping replaces the defaults' null.
      release: { lock_branch: true },
    });
  });

  it("lets null replace a whole mapping, and keeps what nobody overrode", () => {
    expect(web!.settings.branch_protection).toEqual({ main: null, release: null });
    expect(web!.settings.invitations).toEqual({ max_age_days: 30 });
  });

  it("replaces lists instead of merging them", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        defaults:
          webhooks: { hooks: [{ url: "https://ci.example/h" }, { url: "https://chat.example/h" }] }
        repositories:
          - name: acme/api
            webhooks: { hooks: [{ url: "https://only.example/h", events: [push] }] }
      `,
    });
    expect(state.repositories[0]!.settings.webhooks).toEqual({
      hooks: [{ url: "https://only.example/h", events: ["push"] }],
    });
  });
});

describe("the resolved model", () => {
  it("resolves default targets, reading tokens from the environment as secrets", () => {
    const state = stateOf({ "a.yaml": "version: 1\n" }, { GITHUB_TOKEN: "ghp_secret" });
    expect(
      state.targets.map(({ token, ...rest }) => ({ ...rest, hasToken: token !== undefined })),
    ).toEqual([
      {
        name: "github",
        type: "github",
        baseUrl: "https://api.github.com",
        tokenEnv: "GITHUB_TOKEN",
        hasToken: true,
      },
      {
        name: "gitlab",
        type: "gitlab",
        baseUrl: "https://gitlab.com",
        tokenEnv: "GITLAB_TOKEN",
        hasToken: false,
      },
    ]);
    const token = state.targets[0]!.token!;
    expect(token.reveal()).toBe("ghp_secret");
    expect(JSON.stringify(state)).not.toContain("ghp_secret");
    expect(inspect(state, { depth: 10 })).not.toContain("ghp_secret");
  });

  it("fills target defaults by type and trims the base URL", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        targets:
          ghe: { type: repository, base_url: "https://ghe.example/api/v3/" }
          lab: { type: planning, token_env: LAB_TOKEN }
      `,
    });
    expect(
      state.targets.map(({ name, baseUrl, tokenEnv }) => ({ name, baseUrl, tokenEnv })),
    ).toEqual([
      { name: "ghe", baseUrl: "https://ghe.example/api/v3", tokenEnv: "GITHUB_TOKEN" },
      { name: "lab", baseUrl: "https://gitlab.com", tokenEnv: "LAB_TOKEN" },
    ]);
  });

  it("wraps hook secrets, expands variables elsewhere and keeps $${ literal", () => {
    const state = stateOf(
      {
        "a.yaml": yaml`
          version: 1
          repositories:
            - name: acme/api
              webhooks:
                mode: authoritative
                hooks:
                  - url: https://\${CI_HOST}/hooks
                    id: 7
                    branch_filter: "$\${literal}"
                    secret: \${HOOK_SECRET}
                    authorization_header: \${HOOK_AUTH}
                    config: { insecure_ssl: "0" }
        `,
      },
      { CI_HOST: "ci.acme.example", HOOK_SECRET: "s3cret", HOOK_AUTH: "Bearer t0ken" },
    );
    const webhooks = state.repositories[0]!.settings.webhooks as Webhooks;
    const hook = webhooks.hooks![0]!;
    expect(hook.url).toBe("https://ci.acme.example/hooks");
    expect(hook.branch_filter).toBe("${literal}");
    expect(hook.secret).toBeInstanceOf(Secret);
    expect(hook.secret!.reveal()).toBe("s3cret");
    expect(hook.secret!.source).toBe("HOOK_SECRET");
    expect(hook.authorization_header!.reveal()).toBe("Bearer t0ken");
    expect(`${hook.secret}`).toBe("(sensitive)");
    expect(JSON.stringify(state)).not.toMatch(/s3cret|t0ken/);
    expect(webhooks.mode).toBe("authoritative");
  });

  it("parses selectors: names, globs and exclusions", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        repositories:
          - name: Acme/API
            owner_type: organization
          - name: acme/svc-*
            exclude: [acme/svc-legacy-*, ACME/svc-old]
      `,
    });
    const [named, glob] = state.repositories;
    expect(named!.selector).toEqual({ kind: "name", owner: "Acme", repo: "API" });
    expect(named!.ownerType).toBe("organization");
    expect(glob!.selector).toEqual({
      kind: "glob",
      owner: "acme",
      pattern: "svc-*",
      exclude: ["svc-legacy-*", "svc-old"],
    });
    expect(selectsRepository(named!.selector, "acme/api")).toBe(true);
    expect(selectsRepository(glob!.selector, "ACME/svc-billing")).toBe(true);
    expect(selectsRepository(glob!.selector, "acme/svc-legacy-1")).toBe(false);
    expect(selectsRepository(glob!.selector, "acme/svc-old")).toBe(false);
    expect(selectsRepository(glob!.selector, "other/svc-billing")).toBe(false);
  });

  it("matches globs with *, ? and classes", () => {
    expect(matchesGlob("octo-*", "octo-dev")).toBe(true);
    expect(matchesGlob("octo-?", "octo-12")).toBe(false);
    expect(matchesGlob("v[0-9].x", "v3.x")).toBe(true);
    expect(matchesGlob("v[!0-9].x", "v3.x")).toBe(false);
    expect(matchesGlob("a.b", "axb")).toBe(false);
  });

  it("keeps branch names as written", () => {
    const state = stateOf({
      "a.yaml":
        "version: 1\nrepositories:\n  - name: acme/api\n    branch_protection: { 1.10: null, 0x1: null, __proto__: null }\n",
    });
    expect(Object.keys(state.repositories[0]!.settings.branch_protection as object)).toEqual([
      "1.10",
      "0x1",
      "__proto__",
    ]);
  });

  it("resolves clean-ups and audits", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        projects:
          - { project: 1, boards_absent: [{ id: 2 }, { name: Old }] }
        groups:
          - group: acme/sub
            epic_links_absent: [{ epic: 1, related: 2, related_group: 5 }, { link_id: 4 }, { link_id: 5, epic: 3 }]
        audits:
          gists: { since: 2026-01-01T00:00:00Z }
          migrations:
            - { user: true, id: 1, state: [exported, failed] }
            - { org: acme, id: 2, state: exported, repositories: [acme/api] }
      `,
    });
    const entries = (section: string) =>
      state.sections
        .filter((entry) => entry.section === section)
        .map(({ target, value, origin }) => ({ target, value, origin }));
    expect(
      state.projects.map(({ scope, target, selector, settings, origin }) => ({
        scope,
        target,
        selector,
        settings,
        origin,
      })),
    ).toEqual([
      {
        scope: "project",
        target: "gitlab",
        selector: { kind: "name", owner: "", repo: "1" },
        settings: { boards_absent: [{ id: 2 }, { name: "Old" }] },
        origin: { file: "a.yaml", line: 3, column: 5 },
      },
    ]);
    expect(entries("groups")[0]!.value.epic_links_absent).toEqual([
      { epic: 1, related: 2, related_group: 5 },
      { link_id: 4 },
      { link_id: 5, epic: 3 },
    ]);
    expect(entries("audits.gists")).toEqual([
      {
        target: "github",
        value: { since: "2026-01-01T00:00:00Z" },
        origin: { file: "a.yaml", line: 8, column: 10 },
      },
    ]);
    expect(entries("audits.migrations").map(({ target, value }) => ({ target, value }))).toEqual([
      { target: "github", value: { user: true, id: 1, state: ["exported", "failed"] } },
      {
        target: "github",
        value: { org: "acme", id: 2, state: "exported", repositories: ["acme/api"] },
      },
    ]);
  });
});

describe("several files", () => {
  it("merges in order, shares targets, profiles and defaults, and layers every entry of a repository over the defaults once", () => {
    const state = stateOf({
      "base.yaml": yaml`
        version: 1
        targets: { github: { type: repository } }
        profiles: { strict: { branch_protection: { main: { enforce_admins: true } } } }
        defaults:
          branch_protection: { main: { allow_deletions: false } }
        repositories:
          - name: acme/api
            webhooks: { hooks: [{ url: "https://ci.example/h" }] }
      `,
      "team.yaml": yaml`
        version: 1
        defaults:
          invitations: { max_age_days: 14 }
        repositories:
          - name: ACME/api
            profiles: [strict]
          - name: acme/*
      `,
    });
    expect(state.files).toEqual(["base.yaml", "team.yaml"]);
    const [first, second, glob] = state.repositories;
    // Each entry alone: the defaults of both files under its own layers.
    expect(first!.settings.branch_protection).toEqual({ main: { allow_deletions: false } });
    expect(second!.settings.branch_protection).toEqual({
      main: { allow_deletions: false, enforce_admins: true },
    });
    // The two entries of acme/api together: the defaults once, then both entries' layers.
    expect(settingsOf(state.defaults, [first!, second!])).toEqual({
      branch_protection: { main: { allow_deletions: false, enforce_admins: true } },
      webhooks: { hooks: [{ url: "https://ci.example/h" }] },
      invitations: { max_age_days: 14 },
    });
    // A glob that overlaps explicit entries is layered by the planner, not refused here.
    expect(glob!.selector).toEqual({ kind: "glob", owner: "acme", pattern: "*", exclude: [] });
    expect(glob!.settings.branch_protection).toEqual({ main: { allow_deletions: false } });
  });

  const directory = mkdtempSync(join(tmpdir(), "forgeplan-config-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("loads a directory's YAML files in name order, naming them as given", () => {
    writeFileSync(
      join(directory, "20-web.yml"),
      "version: 1\nrepositories: [{ name: acme/web }]\n",
    );
    writeFileSync(
      join(directory, "10-api.yaml"),
      "version: 1\nrepositories: [{ name: acme/api }]\n",
    );
    writeFileSync(join(directory, "notes.txt"), "not loaded");
    const loaded = loadDesiredState([directory.split("/").pop()!], {
      cwd: join(directory, ".."),
      env: {},
    });
    if (!loaded.ok) throw new Error(loaded.errors.map((error) => error.message).join("\n"));
    const name = directory.split("/").pop()!;
    expect(loaded.state.files).toEqual([`${name}/10-api.yaml`, `${name}/20-web.yml`]);
    expect(loaded.state.repositories.map((entry) => entry.origin.file)).toEqual(loaded.state.files);
  });

  it("defaults to forgeplan.yaml in the working directory", () => {
    writeFileSync(join(directory, "forgeplan.yaml"), "version: 1\n");
    const loaded = loadDesiredState([], { cwd: directory, env: {} });
    expect(loaded.ok && loaded.state.files).toEqual(["forgeplan.yaml"]);
  });
});
