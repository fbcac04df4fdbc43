import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { failingProxy } from "../helpers/failing-proxy.js";
import { runInProcess } from "../helpers/cli.js";
import { call, sandbox } from "../sandbox/helpers.js";

/** The placeholders export writes for the demo organization's write-only values, set. */
const placeholders = { NPM_TOKEN: "any", ACME_HOOK_501_SECRET: "any" };

interface Entry {
  name: string;
  [key: string]: unknown;
}

function workspace(): string {
  return mkdtempSync(join(tmpdir(), "forgeplan-export-glob-"));
}

async function exportOrg(url: string, cwd: string) {
  const exported = await runInProcess(["export", "--org", "acme", "--sandbox-url", url], { cwd });
  writeFileSync(join(cwd, "acme.yaml"), exported.stdout);
  const document = parse(exported.stdout) as {
    repositories: Entry[];
    organizations?: Entry[];
  };
  return { ...exported, document };
}

async function planExport(url: string, cwd: string) {
  return runInProcess(["plan", "-c", "acme.yaml", "--sandbox-url", url], {
    cwd,
    env: placeholders,
  });
}

/** What an entry manages: its keys but its name, target and where. */
function managed(entry: Entry | undefined): string[] {
  return Object.keys(entry ?? {}).filter((key) => !["name", "target", "where"].includes(key));
}

describe("export --org of an organization with one repository left unarchived", () => {
  it("keeps that repository's specifics on its own entry, writes the archived ones with a comment, and a repository created afterwards plans no change", async () => {
    const world = await sandbox();
    // The demo world's acme/legacy is archived; archive acme/web too, leaving acme/api alone.
    expect(
      (await call(world, "PATCH", "/repos/acme/web", { body: { archived: true } })).status,
    ).toBe(200);
    const cwd = workspace();
    const exported = await exportOrg(world.url, cwd);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    const entries = exported.document.repositories;
    const glob = entries.find((entry) => entry.name === "acme/*");
    expect(glob).toBeDefined();
    expect(managed(glob)).toEqual([]);
    const api = entries.find((entry) => entry.name === "acme/api");
    for (const key of [
      "settings",
      "access",
      "webhooks",
      "environments",
      "autolinks",
      "variables",
    ]) {
      expect(managed(api)).toContain(key);
    }
    // Archived repositories are there, archived, each with a comment saying why it has an entry.
    for (const name of ["acme/web", "acme/legacy"]) {
      const entry = entries.find((item) => item.name === name);
      expect((entry?.settings as { archived?: boolean } | undefined)?.archived).toBe(true);
      expect(exported.stdout).toContain(`# ${name} is archived:`);
    }
    expect(exported.stdout).toContain("# acme/* selects only acme/api");

    const planned = await planExport(world.url, cwd);
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);

    const created = await call(world, "POST", "/orgs/acme/repos", {
      body: { name: "fresh", private: true },
    });
    expect(created.status).toBe(201);
    const afterwards = await planExport(world.url, cwd);
    expect(afterwards.stdout).not.toContain("acme/fresh");
    expect(afterwards.stdout).toContain("No changes.");
    expect(afterwards.code).toBe(0);
  });

  it("factors onto the glob only what several repositories share", async () => {
    const world = await sandbox({ generate: 3 });
    const cwd = workspace();
    const exported = await exportOrg(world.url, cwd);
    expect(exported.code).toBe(0);
    const glob = exported.document.repositories.find((entry) => entry.name === "acme/*");
    // acme/api, acme/web and three generated repositories share their settings' defaults.
    expect(managed(glob)).toContain("settings");
    // Only acme/api has a description, environments and an autolink: they stay on its entry.
    const settings = glob?.settings as Record<string, unknown>;
    expect(settings.description).toBeUndefined();
    expect(managed(glob)).not.toContain("environments");
    expect(managed(glob)).not.toContain("autolinks");
    expect((await planExport(world.url, cwd)).code).toBe(0);
  });
});

/** An organization whose live settings GitHub answers in a combination forgeplan's loader refuses. */
function inconsistentOrganization(): string {
  const file = join(workspace(), "world.yaml");
  writeFileSync(
    file,
    [
      "users:",
      "  - { login: octo-admin, id: 1, token: sandbox-admin }",
      "organizations:",
      "  - login: acme",
      "    id: 50",
      "    owners: [octo-admin]",
      "    settings:",
      "      members_can_create_repositories: true",
      "      members_can_create_public_repositories: false",
      "      members_can_create_private_repositories: false",
      "      members_can_create_internal_repositories: false",
      "repositories:",
      "  - { full_name: acme/api, branches: [{ name: main }] }",
      "  - { full_name: acme/web, branches: [{ name: main }] }",
      "",
    ].join("\n"),
  );
  return file;
}

describe("export of organization settings the loader refuses as they are live", () => {
  it("writes them in a form that validates, says so in a comment, and plans as no change", async () => {
    const world = await sandbox({ seed: inconsistentOrganization() });
    const cwd = workspace();
    const exported = await exportOrg(world.url, cwd);
    expect(exported.code).toBe(0);
    const settings = exported.document.organizations?.[0]?.settings as Record<string, unknown>;
    expect(settings.members_can_create_repositories).toBeUndefined();
    expect(settings.members_can_create_public_repositories).toBe(false);
    expect(exported.stdout).toMatch(
      /# acme: settings\.members_can_create_repositories is live true, which the configuration cannot hold: .*all false; left out, so it stays as it is/,
    );
    const validated = await runInProcess(["validate", "-c", "acme.yaml"], { cwd });
    expect(validated.stderr).toBe("");
    expect(validated.code).toBe(0);
    const planned = await planExport(world.url, cwd);
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });
});

describe("export --org when the organization's hooks cannot be read", () => {
  it("leaves out only the hooks, named exactly, and exports the rest of the organization", async () => {
    const world = await sandbox();
    const proxy = await failingProxy(world.url, (method, path) =>
      method === "GET" && path === "/orgs/acme/hooks"
        ? { status: 403, body: { message: "Resource not accessible by integration" } }
        : undefined,
    );
    try {
      const cwd = workspace();
      const exported = await exportOrg(proxy.url, cwd);
      expect(exported.code).toBe(1);
      expect(exported.stderr).toBe(
        'forgeplan: export: 1 part could not be read and is left out; the YAML names it in a comment starting "# not exported:"\n',
      );
      expect(exported.stdout).toContain(
        "# not exported: the webhooks of organization acme: GET /orgs/acme/hooks",
      );
      const organization = exported.document.organizations?.[0];
      expect(managed(organization).sort()).toEqual(
        [
          "actions",
          "custom_properties",
          "rulesets",
          "secrets",
          "settings",
          "teams",
          "variables",
        ].sort(),
      );
      const planned = await runInProcess(["plan", "-c", "acme.yaml", "--sandbox-url", world.url], {
        cwd,
        env: placeholders,
      });
      expect(planned.stdout).toContain("No changes.");
      expect(planned.code).toBe(0);
    } finally {
      await proxy.stop();
    }
  });

  it("names each repository part it leaves out by its key", async () => {
    const world = await sandbox();
    const proxy = await failingProxy(world.url, (method, path) =>
      method === "GET" && path === "/repos/acme/api/autolinks"
        ? { status: 403, body: { message: "Resource not accessible by integration" } }
        : undefined,
    );
    try {
      const exported = await exportOrg(proxy.url, workspace());
      expect(exported.code).toBe(1);
      expect(exported.stdout).toContain(
        "# not exported: the autolinks of acme/api: GET /repos/acme/api/autolinks",
      );
      expect(exported.stdout).not.toContain("settings settings");
    } finally {
      await proxy.stop();
    }
  });
});
