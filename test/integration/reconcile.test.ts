import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

const demo = "examples/forgeplan.yaml";
const at = () => ["--sandbox-url", world.url];

function planJson(stdout: string): Plan {
  return JSON.parse(stdout) as Plan;
}

describe("plan → apply → plan on the demo config", () => {
  it("plans the demo changes exactly, applies them, and re-plans as no change", async () => {
    const first = await runInProcess(["plan", "-c", demo, ...at(), "--format", "json"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(2);
    const plan = planJson(first.stdout);
    const actions = Object.fromEntries(
      plan.changes.filter((c) => c.action !== "no-op").map((c) => [c.address, c.action]),
    );
    expect(actions).toEqual({
      "github/acme/api/label/triage": "update",
      "github/acme/api/branch_protection/main": "update",
      "github/acme/web/branch_protection/main": "create",
      "github/acme/api/webhook/https://ci.acme.example/hooks/forge": "update",
      "gitlab/acme/api/board/Legacy triage": "delete",
      "gitlab/acme/epic_link/1-2": "delete",
      "github/acme/api/invitation/1": "report",
      "github/acme/api/invitation/3": "report",
      "github/octo-admin/gist/a1b2c3d4e5f60718293a": "report",
    });
    const update = plan.changes.find((c) => c.address === "github/acme/api/branch_protection/main");
    expect(update?.diff).toEqual([
      {
        path: "required_pull_request_reviews.required_approving_review_count",
        before: 1,
        after: 2,
      },
    ]);
    expect(update?.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "PUT /repos/acme/api/branches/main/protection",
    ]);

    const applied = await runInProcess([
      "apply",
      "-c",
      demo,
      ...at(),
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Apply: 6 applied, 0 failed, 0 held, 0 skipped.");

    const again = await runInProcess(["plan", "-c", demo, ...at()]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      "No changes. Live state matches the desired state.\n3 audit reports.\n",
    );
    const boards = await call(world, "GET", "/api/v4/projects/1/boards");
    expect((boards.body as Array<{ id: number }>).map((b) => b.id)).toEqual([1]);
    const related = await call(world, "GET", "/api/v4/groups/1/epics/2/related_epics");
    expect(related.body).toEqual([]);
  });

  it("refuses to apply without --auto-approve when stdin is not a terminal, changing nothing", async () => {
    const result = await runInProcess(["apply", "-c", demo, ...at()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "forgeplan: apply: refusing to apply without confirmation: stdin is not a terminal (pass --auto-approve)\n",
    );
    expect(world.stats().mutations_applied).toBe(0);
  });

  it("plans deletes but applies them only with --allow-delete", async () => {
    const result = await runInProcess(["apply", "-c", demo, ...at(), "--auto-approve"]);
    // The skipped deletes were planned and not applied: exit 1, naming them.
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "forgeplan: apply: 2 changes skipped: deletes need --allow-delete\n",
    );
    expect(result.stdout).toContain("Apply: 4 applied, 0 failed, 0 held, 2 skipped.");
    const boards = await call(world, "GET", "/api/v4/projects/1/boards");
    expect((boards.body as Array<{ id: number }>).map((b) => b.id)).toEqual([1, 2]);
    const next = await runInProcess(["plan", "-c", demo, ...at(), "--format", "json"]);
    expect(next.code).toBe(2);
    expect(planJson(next.stdout).summary).toMatchObject({ create: 0, update: 0, delete: 2 });
  });
});

describe("per-change errors", () => {
  it("reports an unknown repository, branch and hook with request and status, and plans the rest", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/nope
    branch_protection: { main: { enforce_admins: true } }
  - name: acme/api
    branch_protection:
      nope: { enforce_admins: true }
      main: { enforce_admins: true }
    webhooks:
      hooks:
        - { id: 99, url: https://nowhere.example/hook }
`);
    const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"]);
    expect(result.code).toBe(1);
    const plan = planJson(result.stdout);
    const errors = Object.fromEntries(
      plan.changes.filter((c) => c.error).map((c) => [c.address, c.error]),
    );
    expect(errors).toEqual({
      "github/acme/nope/branch_protection/main": {
        message: "repository acme/nope was not found (or the token cannot see it)",
        request: "GET /repos/acme/nope/branches/main/protection",
        status: 404,
      },
      "github/acme/api/branch_protection/nope": {
        message: "branch 'nope' does not exist in acme/api",
        request: "GET /repos/acme/api/branches/nope/protection",
        status: 404,
      },
      "github/acme/api/webhook/https://nowhere.example/hook": {
        message: "hook id 99 does not exist in acme/api",
        request: "GET /repos/acme/api/hooks",
        status: 404,
      },
    });
    expect(
      plan.changes.find((c) => c.address === "github/acme/api/branch_protection/main")?.action,
    ).toBe("update");
    expect(plan.errors).toBe(3);
  });

  it("exits 1 with one line when the configuration is invalid, before any request", async () => {
    const path = configFile(
      "version: 1\nrepositories:\n  - name: acme/api\n    branch_protection: { main: { enforce_admin: true } }\n",
    );
    const result = await runInProcess(["plan", "-c", path, ...at()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /forgeplan\.yaml:4:\d+: .*enforce_admin.*did you mean .*enforce_admins/,
    );
    expect(world.stats().requests_total).toBe(0);
  });
});

describe("webhooks", () => {
  it("reports hooks not listed for deletion in authoritative mode", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    webhooks:
      mode: authoritative
      hooks:
        - { url: https://ci.acme.example/hooks/forge }
`);
    const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"]);
    expect(result.code).toBe(2);
    const deletes = planJson(result.stdout).changes.filter((c) => c.action === "delete");
    expect(deletes.map((c) => [c.address, c.requests])).toEqual([
      [
        "github/acme/api/webhook/https://chat.acme.example/notify",
        [{ method: "DELETE", path: "/repos/acme/api/hooks/2" }],
      ],
    ]);
  });

  it("creates a hook, keeps its secret out of every output, and never churns on it", async () => {
    const secret = "hunter2-super-secret";
    const auth = "Bearer tok-very-private";
    const env = { HOOK_SECRET: secret, HOOK_AUTH: auth };
    const yaml = (contentType: string) => `version: 1
repositories:
  - name: acme/web
    webhooks:
      hooks:
        - url: https://deploy.acme.example/hook
          events: [deployment]
          content_type: ${contentType}
          secret: \${HOOK_SECRET}
          authorization_header: \${HOOK_AUTH}
`;
    const path = configFile(yaml("json"));
    const outputs: string[] = [];
    for (const format of ["text", "markdown", "json"]) {
      const planned = await runInProcess(["plan", "-c", path, ...at(), "--format", format], {
        env,
      });
      expect(planned.code).toBe(2);
      outputs.push(planned.stdout, planned.stderr);
    }
    const applied = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"], { env });
    expect(applied.code).toBe(0);
    outputs.push(applied.stdout, applied.stderr);
    const hooks = await call(world, "GET", "/repos/acme/web/hooks");
    expect(hooks.body).toMatchObject([
      {
        config: { url: "https://deploy.acme.example/hook", secret: "********" },
        authorization_header: "********",
      },
    ]);

    const again = await runInProcess(["plan", "-c", path, ...at()], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("could not be verified");
    outputs.push(again.stdout);

    // A config-only edit goes through the config endpoint: the secret stays set on the service.
    const edited = configFile(yaml("form"));
    const edit = await runInProcess(["apply", "-c", edited, ...at(), "--auto-approve"], { env });
    expect(edit.code).toBe(0);
    outputs.push(edit.stdout, edit.stderr);
    expect((await call(world, "GET", "/repos/acme/web/hooks")).body).toMatchObject([
      { config: { content_type: "form", secret: "********" }, authorization_header: "********" },
    ]);
    expect((await runInProcess(["plan", "-c", edited, ...at()], { env })).code).toBe(0);

    const rotated = await runInProcess(
      ["plan", "-c", edited, ...at(), "--format", "json", "--rotate-secrets"],
      { env },
    );
    expect(rotated.code).toBe(2);
    const change = planJson(rotated.stdout).changes.find((c) => c.kind === "webhook");
    expect(change?.diff).toEqual([
      { path: "secret", before: "(sensitive)", after: "(sensitive)", sensitive: true },
      {
        path: "authorization_header",
        before: "(sensitive)",
        after: "(sensitive)",
        sensitive: true,
      },
    ]);
    const id = (hooks.body as Array<{ id: number }>)[0]!.id;
    expect(change?.requests).toEqual([
      {
        method: "PATCH",
        path: `/repos/acme/web/hooks/${id}/config`,
        body: { secret: { $secret: "HOOK_SECRET" } },
      },
      {
        method: "PATCH",
        path: `/repos/acme/web/hooks/${id}`,
        body: { authorization_header: { $secret: "HOOK_AUTH" } },
      },
    ]);
    outputs.push(rotated.stdout);
    const rotation = await runInProcess(
      ["apply", "-c", edited, ...at(), "--auto-approve", "--rotate-secrets"],
      { env },
    );
    expect(rotation.code).toBe(0);
    outputs.push(rotation.stdout, rotation.stderr);
    for (const output of outputs) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain("tok-very-private");
    }
  });
});

describe("verification after a write", () => {
  it("fails loudly when the service drops a principal without write access", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    branch_protection:
      main:
        restrictions: { users: [octo-admin, octo-reader], teams: [] }
`);
    const result = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "the service did not keep what was written (restrictions.users",
    );
  });
});

describe("review dismissal restricted to admins", () => {
  it("survives a change to another review setting, and exports as no change", async () => {
    const protection = "/repos/acme/api/branches/release/protection";
    const restricted = await call(world, "PUT", protection, {
      body: {
        required_status_checks: null,
        enforce_admins: false,
        required_pull_request_reviews: { dismissal_restrictions: { users: [], teams: [] } },
        restrictions: null,
      },
    });
    expect(restricted.status).toBe(200);
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    branch_protection:
      release:
        required_pull_request_reviews: { required_approving_review_count: 2 }
`);
    const planned = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"]);
    const change = planJson(planned.stdout).changes.find((c) => c.action === "update");
    expect(change?.diff.map((entry) => entry.path)).toEqual([
      "required_pull_request_reviews.required_approving_review_count",
    ]);
    const applied = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"]);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    const read = await call(world, "GET", protection);
    expect(read.body.required_pull_request_reviews.dismissal_restrictions).toMatchObject({
      users: [],
      teams: [],
    });
    const exported = await runInProcess(["export", "--repo", "acme/api", ...at()]);
    expect(exported.stdout).toContain("dismissal_restrictions:");
    const again = await runInProcess(["plan", "-c", configFile(exported.stdout), ...at()]);
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining("No changes.")]);
  });
});

describe("export", () => {
  it("prints YAML that validates and plans as no change against the same live state", async () => {
    const exported = await runInProcess([
      "export",
      "--repo",
      "acme/api",
      "--repo",
      "acme/web",
      ...at(),
    ]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    const path = configFile(exported.stdout);
    expect((await runInProcess(["validate", "-c", path])).code).toBe(0);
    const planned = await runInProcess(["plan", "-c", path, ...at()]);
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });
});

describe("renderers through the CLI", () => {
  it("prints the markdown plan with the sticky-comment marker and the JSON plan with the contract's shape", async () => {
    const markdown = await runInProcess(["plan", "-c", demo, ...at(), "--format", "markdown"]);
    expect(markdown.stdout.startsWith("<!-- forgeplan -->\n")).toBe(true);
    const json = planJson(
      (await runInProcess(["plan", "-c", demo, ...at(), "--format", "json"])).stdout,
    );
    expect(json.format_version).toBe(1);
    expect(json.summary).toEqual({ create: 1, update: 3, delete: 2, report: 3, "no-op": 5 });
  });

  it("applies with --format json as one document, and asks no question", async () => {
    const applied = await runInProcess([
      "apply",
      "-c",
      demo,
      ...at(),
      "--auto-approve",
      "--allow-delete",
      "--format",
      "json",
    ]);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    const document = JSON.parse(applied.stdout) as {
      plan: Plan;
      outcomes: Array<{ outcome: string }>;
      verification: Plan;
      verified: boolean;
    };
    expect(Object.keys(document)).toEqual(["plan", "outcomes", "verification", "verified"]);
    expect(document.plan.summary).toMatchObject({ create: 1, update: 3, delete: 2 });
    expect(document.outcomes.map((outcome) => outcome.outcome)).toEqual(Array(6).fill("applied"));
    expect(document.verified).toBe(true);
    const again = await runInProcess([
      "apply",
      "-c",
      demo,
      ...at(),
      "--auto-approve",
      "--format",
      "json",
    ]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ outcomes: [], verified: true });
    const asked = await runInProcess(["apply", "-c", demo, ...at(), "--format", "json"], {
      tty: true,
      answer: "yes",
    });
    expect(asked).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "forgeplan: apply: --format json asks no question: pass --auto-approve (review the plan first with 'forgeplan plan')\n",
    });
  });

  it("exits 0 when only audits report", async () => {
    const path = configFile("version: 1\naudits:\n  gists: { allow_public: false }\n");
    const result = await runInProcess(["plan", "-c", path, ...at()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("has findings");
  });
});

describe("confirmation on a terminal", () => {
  it("applies after the user types yes", async () => {
    const result = await runInProcess(["apply", "-c", demo, ...at(), "--allow-delete"], {
      tty: true,
      answer: "yes",
    });
    expect(result.stderr).toContain(
      "Apply 1 create(s), 3 update(s), 2 delete(s)? Only 'yes' is accepted: ",
    );
    expect(result.code).toBe(0);
    expect(world.stats().mutations_applied).toBe(6);
  });

  it("asks about what will be applied: deletes without --allow-delete are named, not counted", async () => {
    const result = await runInProcess(["apply", "-c", demo, ...at()], { tty: true, answer: "no" });
    expect(result.stderr).toContain(
      "Apply 1 create(s), 3 update(s), 0 delete(s)? (2 planned delete(s) skipped: they need --allow-delete) Only 'yes' is accepted: ",
    );
    expect(result.code).toBe(1);
  });

  it("changes nothing when the user types anything else", async () => {
    const result = await runInProcess(["apply", "-c", demo, ...at()], { tty: true, answer: "y" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("forgeplan: apply: cancelled, nothing was applied\n");
    expect(world.stats().mutations_applied).toBe(0);
  });

  it("colors the text plan on a terminal unless NO_COLOR is set", async () => {
    const colored = await runInProcess(["plan", "-c", demo, ...at()], { tty: true });
    expect(colored.stdout).toContain("\u001b[");
    const plain = await runInProcess(["plan", "-c", demo, ...at()], {
      tty: true,
      env: { NO_COLOR: "1" },
    });
    expect(plain.stdout).not.toContain("\u001b[");
  });

  it("leaves colour off with --no-color or on a dumb terminal, and forces it with FORCE_COLOR", async () => {
    const plan = (options: { tty: boolean; env?: Record<string, string> }, ...flags: string[]) =>
      runInProcess(["plan", "-c", demo, ...at(), ...flags], options);
    expect((await plan({ tty: true }, "--no-color")).stdout).not.toContain("\u001b[");
    expect((await plan({ tty: true, env: { TERM: "dumb" } })).stdout).not.toContain("\u001b[");
    expect((await plan({ tty: false, env: { FORCE_COLOR: "1" } })).stdout).toContain("\u001b[");
    expect((await plan({ tty: true, env: { FORCE_COLOR: "0" } })).stdout).not.toContain("\u001b[");
    const forced = await plan({ tty: false, env: { FORCE_COLOR: "1" } }, "--no-color");
    expect(forced.stdout).not.toContain("\u001b[");
  });
});

describe("errors from the service", () => {
  it("ends a failed apply with one stderr line naming the change and the cause", async () => {
    const path = configFile(`version: 1
repositories:
  - name: acme/web
    branch_protection:
      main:
        restrictions: { users: [nobody-here], teams: [] }
`);
    const result = await runInProcess(["apply", "-c", path, ...at(), "--auto-approve"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "forgeplan: apply: 1 change failed: github/acme/web/branch_protection/main: PUT /repos/acme/web/branches/main/protection → 422: Validation Failed: restrictions.users: user 'nobody-here' does not exist\n",
    );
  });

  it("names a missing epic with the request and status, and plans the rest", async () => {
    const path = configFile(`version: 1
groups:
  - group: acme
    epic_links_absent:
      - { epic: 99, related: 1 }
      - { link_id: 2, epic: 3 }
`);
    const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"]);
    expect(result.code).toBe(1);
    const plan = planJson(result.stdout);
    expect(plan.changes.map((c) => [c.name, c.action, c.error?.status])).toEqual([
      ["99-1", "no-op", 404],
      ["link-2", "delete", undefined],
    ]);
    expect(plan.changes[0]?.error?.request).toBe("GET /api/v4/groups/acme/epics/99/related_epics");
  });
});

describe("secondary-limit pacing from the command line", () => {
  it("holds reads of one endpoint to the points a minute it is told, within --max-wait", async () => {
    // Three protection reads cost 3 points; with 2 a minute the third must wait a minute, which
    // --max-wait 1s refuses: that change fails with the reason, and nothing was over the limit.
    const result = await runInProcess([
      "plan",
      "-c",
      demo,
      ...at(),
      "--points-per-minute",
      "2",
      "--max-wait",
      "1s",
      "--format",
      "json",
    ]);
    expect(result.code).toBe(1);
    const errors = planJson(result.stdout).changes.flatMap((c) =>
      c.error ? [c.error.message] : [],
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^secondary rate limit on \/repos\/\{owner\}\/\{repo\}\/branches\/\{branch\}\/protection: its points a minute are spent until .* longer than the maximum wait of 1 s$/,
    );
    expect(world.stats().secondary_limited_responses).toBe(0);
  });

  it("refuses a zero budget in one line", async () => {
    const result = await runInProcess(["plan", "-c", demo, ...at(), "--points-per-minute", "0"]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "forgeplan: plan: --points-per-minute must be at least 1\n",
    });
  });
});
