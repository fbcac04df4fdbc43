import { afterEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * The "Done when" of issue #32 against the sandbox: a repository's settings, its lifecycle (create,
 * previous names, archiving) and the order of its changes across kinds, through the CLI.
 */

const READ_ONLY = "Repository was archived so is read-only.";

let running: RunningSandbox | undefined;
let writes: RecordedRequest[] = [];

async function world(): Promise<RunningSandbox> {
  writes = [];
  running = await sandbox({
    onRequest: (request) => {
      if (request.method !== "GET") writes.push(request);
    },
  });
  return running;
}

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const sent = () => writes.map((request) => `${request.method} ${request.path}`);

function run(sb: RunningSandbox, command: string, yaml: string, ...extra: string[]) {
  const args = [command, "-c", configFile(yaml), "--sandbox-url", sb.url, ...extra];
  return runInProcess(command === "apply" ? [...args, "--auto-approve"] : args);
}

async function planJson(sb: RunningSandbox, yaml: string): Promise<Plan> {
  const result = await run(sb, "plan", yaml, "--format", "json");
  return JSON.parse(result.stdout) as Plan;
}

const ARCHIVE_AND_DESCRIBE = `version: 1
repositories:
  - name: acme/api
    settings:
      archived: true
      description: Retired for the new API
    webhooks:
      hooks:
        - { url: https://ci.acme.example/hooks/forge, events: [push] }
`;

describe("repository settings and lifecycle", () => {
  it("archives last: the description and the hook go first, and the re-plan shows no change", async () => {
    const sb = await world();
    const text = await run(sb, "plan", ARCHIVE_AND_DESCRIBE);
    expect(text.stdout).toContain(
      "~ github/acme/api/settings/archived will be updated\n    archived: false → true\n    note: archive last, after 2 changes\n",
    );
    const applied = await run(sb, "apply", ARCHIVE_AND_DESCRIBE);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(sent()).toEqual([
      "PATCH /repos/acme/api",
      "PATCH /repos/acme/api/hooks/1",
      "PATCH /repos/acme/api",
    ]);
    expect(writes.map((request) => request.body)).toEqual([
      { description: "Retired for the new API" },
      { events: ["push"] },
      { archived: true },
    ]);
    const again = await run(sb, "plan", ARCHIVE_AND_DESCRIBE);
    expect([again.code, again.stdout]).toEqual([
      0,
      [
        "No changes. Live state matches the desired state.",
        // acme/api itself (where it is, whether it is archived, its settings) and its hooks.
        "Reads: 2 REST requests (0 from the cache), 0 GraphQL queries (0 points) · ≥ 2 s at 5,000 REST requests/h",
        "",
      ].join("\n"),
    ]);
  });

  it("fails in the sandbox as on GitHub when the same requests are sent archive first", async () => {
    const sb = await world();
    const plan = await planJson(sb, ARCHIVE_AND_DESCRIBE);
    // The archive first, as a tool that does not order a repository's changes would send it.
    const archive = plan.changes.filter((change) => change.step === "archive");
    const rest = plan.changes.filter((change) => change.step === undefined);
    const requests = [...archive, ...rest].flatMap((change) => change.requests);
    expect(requests[0]).toEqual({
      method: "PATCH",
      path: "/repos/acme/api",
      body: { archived: true },
    });
    const answers = [];
    for (const request of requests) {
      const answer = await call(sb, request.method, request.path, { body: request.body });
      answers.push([answer.status, answer.body.message ?? null]);
    }
    expect(answers).toEqual([
      [200, null],
      [403, READ_ONLY],
      [403, READ_ONLY],
    ]);
  });

  it("sends nothing to an archived repository under skip, and fails only when asked", async () => {
    const sb = await world();
    const yaml = `version: 1
repositories:
  - name: acme/legacy
    settings:
      description: The old monolith, now documented
    webhooks:
      hooks:
        - { url: https://legacy.acme.example/hook }
`;
    const planned = await run(sb, "plan", yaml);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(
      '! github/acme/legacy/settings/repository has findings\n    description: "The old monolith" → "The old monolith, now documented"\n    • not applied: archived — acme/legacy is archived and stays so (archived_repositories: skip), so this update is not sent\n',
    );
    expect(planned.stdout).toContain(
      "! github/acme/legacy/webhook/https://legacy.acme.example/hook has findings",
    );
    const applied = await run(sb, "apply", yaml);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(applied.stdout).toContain("Nothing to apply.");
    expect(sent()).toEqual([]);
    const strict = await run(sb, "plan", yaml, "--fail-on-archived");
    expect([strict.code, strict.stderr]).toEqual([
      1,
      "forgeplan: plan: 2 changes not applied: archived (--fail-on-archived): github/acme/legacy/settings/repository, and 1 more\n",
    ]);
    expect((await run(sb, "apply", yaml, "--fail-on-archived")).code).toBe(1);
    expect(sent()).toEqual([]);
  });

  it("unarchives, applies and archives again under archived_repositories: unarchive", async () => {
    const sb = await world();
    const yaml = `version: 1
defaults:
  settings: { archived_repositories: unarchive }
repositories:
  - name: acme/legacy
    settings: { topics: [monolith, legacy] }
`;
    const applied = await run(sb, "apply", yaml);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(sent()).toEqual([
      "PATCH /repos/acme/legacy",
      "PUT /repos/acme/legacy/topics",
      "PATCH /repos/acme/legacy",
    ]);
    expect(writes.map((request) => request.body)).toEqual([
      { archived: false },
      { names: ["legacy", "monolith"] },
      { archived: true },
    ]);
    expect((await call(sb, "GET", "/repos/acme/legacy")).body.archived).toBe(true);
    expect((await run(sb, "plan", yaml)).code).toBe(0);
  });

  it("plans one rename for a repository found under a previous name, after the changes that use it", async () => {
    const sb = await world();
    const yaml = `version: 1
repositories:
  - name: acme/api-v2
    settings:
      previously: [api]
      description: The API, second edition
    webhooks:
      hooks:
        - { url: https://ci.acme.example/hooks/forge, events: [push] }
`;
    const plan = await planJson(sb, yaml);
    const renames = plan.changes.filter((change) => change.step === "rename");
    expect(renames.map((change) => [change.address, change.requests])).toEqual([
      [
        "github/acme/api-v2/settings/name",
        [{ method: "PATCH", path: "/repos/acme/api", body: { name: "api-v2" } }],
      ],
    ]);
    // Every change is addressed by the name configured and sent where the repository is now.
    expect(plan.changes.every((change) => change.scope === "acme/api-v2")).toBe(true);
    const applied = await run(sb, "apply", yaml);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(sent()).toEqual([
      "PATCH /repos/acme/api",
      "PATCH /repos/acme/api/hooks/1",
      "PATCH /repos/acme/api",
    ]);
    expect((await call(sb, "GET", "/repos/acme/api-v2")).body.description).toBe(
      "The API, second edition",
    );
    // The re-plan reads the new name; the old one redirects to it, and is not another repository.
    expect((await run(sb, "plan", yaml)).code).toBe(0);
  });

  it("refuses to guess when the name and a previous name are two repositories", async () => {
    const sb = await world();
    const result = await run(
      sb,
      "plan",
      `version: 1
repositories:
  - name: acme/api
    settings: { previously: [web], has_wiki: false }
`,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "acme/api and acme/web are two repositories (ids 1001 and 1002); previously lists web, which is not this repository's old name",
    );
    expect(sent()).toEqual([]);
  });

  it("switches the default branch to one that exists only, naming the branches when it is missing", async () => {
    const sb = await world();
    const missing = await run(
      sb,
      "plan",
      `version: 1
repositories:
  - name: acme/api
    settings: { default_branch: develop }
`,
    );
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      "✗ github/acme/api/settings/default_branch could not be planned\n    error: GET /repos/acme/api/branches → 200: default_branch develop does not exist in acme/api (its branches: main, release): default_branch switches to an existing branch only; rename_default_branch renames one\n",
    );
    const renamed = `version: 1
repositories:
  - name: acme/legacy
    settings:
      archived: false
      rename_default_branch: { from: master, to: main }
`;
    expect((await run(sb, "apply", renamed)).code).toBe(0);
    expect(sent()).toEqual([
      "PATCH /repos/acme/legacy",
      "POST /repos/acme/legacy/branches/master/rename",
    ]);
    expect((await call(sb, "GET", "/repos/acme/legacy")).body.default_branch).toBe("main");
    expect((await run(sb, "plan", renamed)).code).toBe(0);
  });

  it("writes no visibility change without --allow-visibility, and says which flag applies it", async () => {
    const sb = await world();
    const yaml = `version: 1
repositories:
  - name: acme/api
    settings: { visibility: public, has_wiki: false }
`;
    const planned = await run(sb, "plan", yaml);
    expect(planned.stdout).toContain(
      "    note: a visibility change: applied only with --allow-visibility\n",
    );
    expect(planned.stdout).toContain(
      "GitHub: making a repository public makes its code visible to everyone",
    );
    const applied = await run(sb, "apply", yaml);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe(
      "forgeplan: apply: 1 change skipped: a visibility change needs --allow-visibility\n",
    );
    expect(applied.stdout).toContain(
      "  ○ github/acme/api/settings/visibility (update): a visibility change needs --allow-visibility\n",
    );
    expect(writes.map((request) => request.body)).toEqual([{ has_wiki: false }]);
    expect((await run(sb, "apply", yaml, "--allow-visibility")).code).toBe(0);
    expect(writes.at(-1)?.body).toEqual({ visibility: "public" });
  });

  it("creates a repository only with --allow-create, under the organization or the user", async () => {
    const sb = await world();
    const yaml = `version: 1
repositories:
  - name: acme/payments
    settings: { create: true, visibility: private, description: Payments, topics: [payments] }
  - name: octo-admin/notes
    settings: { create: true, visibility: private }
`;
    const skipped = await run(sb, "apply", yaml);
    expect(skipped.stdout).toContain(
      "a creation (of a repository or project) needs --allow-create",
    );
    expect(sent()).toEqual([]);
    const created = await run(sb, "apply", yaml, "--allow-create");
    expect([created.code, created.stderr]).toEqual([0, ""]);
    // The two creations run side by side; each repository's writes keep their order.
    expect(sent().filter((write) => !write.startsWith("POST /user/"))).toEqual([
      "POST /orgs/acme/repos",
      "PUT /repos/acme/payments/topics",
    ]);
    expect(writes.map((request) => request.body)).toEqual(
      expect.arrayContaining([
        { name: "payments", visibility: "private", description: "Payments" },
        { name: "notes", private: true },
      ]),
    );
    expect((await run(sb, "plan", yaml)).code).toBe(0);
  });
});
