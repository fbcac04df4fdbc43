import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { call, protectionBody, sandbox } from "./helpers.js";

const SMALL = "test/sandbox/fixtures/small-world.yaml";

function seedFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-seed-")), "world.yaml");
  writeFileSync(file, text);
  return file;
}

async function seedError(text: string): Promise<string> {
  const file = seedFile(text);
  try {
    await startSandbox({ seed: file });
  } catch (error) {
    return (error as Error).message.replace(file, "world.yaml");
  }
  throw new Error("the seed was accepted");
}

describe("seed files", () => {
  it("serve the world they describe", async () => {
    const sb = await sandbox({ seed: SMALL });
    const repos = await call(sb, "GET", "/orgs/tiny/repos", { token: "alice-token" });
    expect(repos.body.map((repo: { name: string }) => repo.name)).toEqual(["strict", "locked"]);
    expect((await call(sb, "GET", "/repos/acme/api")).status).toBe(401);
  });

  it("hold back changes to repositories locked by a pending or exporting migration", async () => {
    const sb = await sandbox({ seed: SMALL });
    const alice = { token: "alice-token" };
    const hook = await call(sb, "PATCH", "/repos/tiny/locked/hooks/40", {
      ...alice,
      body: { active: false },
    });
    expect([hook.status, hook.body.message]).toEqual([
      403,
      "Repository is locked by a migration in progress.",
    ]);
    expect((await call(sb, "GET", "/repos/tiny/locked/hooks/40", alice)).body.active).toBe(true);
    const pending = await call(sb, "PUT", "/repos/alice/secret/branches/main/protection", {
      ...alice,
      body: protectionBody(),
    });
    expect(pending.status).toBe(403);
    const failedMigration = await call(sb, "PUT", "/repos/tiny/strict/branches/main/protection", {
      ...alice,
      body: protectionBody(),
    });
    expect(failedMigration.status).toBe(200);
  });

  it("name the file, line and key of a type error", async () => {
    const message = await seedError(
      [
        "users:",
        "  - login: ann",
        "    id: 1",
        "repositories:",
        "  - full_name: ann/x",
        "    private: maybe",
        "    branches: [{name: main}]",
      ].join("\n"),
    );
    expect(message).toBe(
      "world.yaml:6: repositories[0].private: Invalid input: expected boolean, received string",
    );
  });

  it("name the file, line and key of a dangling reference", async () => {
    const message = await seedError(
      [
        "users:",
        "  - { login: ann, id: 1 }",
        "repositories:",
        "  - full_name: ann/x",
        "    collaborators:",
        "      bob: push",
        "    branches: [{name: main}]",
      ].join("\n"),
    );
    expect(message).toBe("world.yaml:6: repositories[0].collaborators.bob: unknown user 'bob'");
  });

  it("take a user's token scopes only with the token they are the scopes of", async () => {
    const message = await seedError(
      ["users:", "  - { login: ann, id: 1, token_scopes: [repo] }"].join("\n"),
    );
    expect(message).toBe(
      "world.yaml:2: users[0].token_scopes: token_scopes are the scopes of the user's token: give the token too",
    );
  });

  it("check protections in the seed like a PUT", async () => {
    const message = await seedError(
      [
        "users:",
        "  - { login: ann, id: 1 }",
        "repositories:",
        "  - full_name: ann/x",
        "    branches:",
        "      - name: main",
        "        protection:",
        "          enforce_admins: true",
      ].join("\n"),
    );
    expect(message).toMatch(
      /^world\.yaml:8: repositories\[0\]\.branches\[0\]\.protection: "required_pull_request_reviews", "required_status_checks", "restrictions" weren't supplied\.$/,
    );
  });

  it("hold only the hook config keys GitHub keeps", async () => {
    const message = await seedError(
      [
        "users:",
        "  - { login: ann, id: 1 }",
        "repositories:",
        "  - full_name: ann/x",
        "    branches: [{name: main}]",
        "    hooks:",
        "      - id: 1",
        "        config: { url: 'https://h.example/x', forgeplan_secret_version: '1' }",
      ].join("\n"),
    );
    expect(message).toMatch(
      /^world\.yaml:8: repositories\[0\]\.hooks\[0\]\.config: Unrecognized key: "forgeplan_secret_version"/,
    );
  });

  it("hold hooks sharing a url only while their events do not overlap, as GitHub's POST does", async () => {
    const hooks = (second: string) =>
      [
        "users:",
        "  - { login: ann, id: 1, token: ann-token }",
        "repositories:",
        "  - full_name: ann/x",
        "    branches: [{name: main}]",
        "    hooks:",
        "      - { id: 1, config: { url: 'https://h.example/x' }, events: [push] }",
        `      - { id: 2, config: { url: 'https://h.example/x' }, events: ${second} }`,
      ].join("\n");
    expect(await seedError(hooks("[release, '*']"))).toBe(
      'world.yaml:8: repositories[0].hooks[1]: hook 1 has the same url and an event in common ("Hook already exists on this repository")',
    );
    const sb = await sandbox({ seed: seedFile(hooks("[release]")) });
    const listed = await call(sb, "GET", "/repos/ann/x/hooks", { token: "ann-token" });
    expect(
      listed.body.map((hook: { id: number; events: string[] }) => [hook.id, hook.events]),
    ).toEqual([
      [1, ["push"]],
      [2, ["release"]],
    ]);
  });

  it("check custom property values in the seed like a PATCH", async () => {
    const message = await seedError(
      [
        "organizations:",
        "  - login: org",
        "    id: 1",
        "    custom_properties:",
        "      - { property_name: tier, value_type: single_select, allowed_values: [gold] }",
        "repositories:",
        "  - full_name: org/x",
        "    branches: [{name: main}]",
        "    custom_properties: { tier: silver, team: web }",
      ].join("\n"),
    );
    expect(message).toBe(
      "world.yaml:9: repositories[0].custom_properties: 'silver' is not an allowed value of tier; property 'team' is not defined for org",
    );
  });

  it("report YAML syntax errors and missing files in one line", async () => {
    expect(await seedError("users:\n  - login: [unclosed\n")).toMatch(/^world\.yaml:\d+: /);
    await expect(startSandbox({ seed: "/nonexistent/world.yaml" })).rejects.toThrow(
      "/nonexistent/world.yaml: no such file",
    );
  });

  it("refuse --generate without an acme organization", async () => {
    await expect(startSandbox({ seed: SMALL, generate: 3 })).rejects.toThrow(
      "--generate needs an organization 'acme' in the seed",
    );
  });
});
