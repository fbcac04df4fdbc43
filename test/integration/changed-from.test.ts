import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { repoRoot, runInProcess } from "../helpers/cli.js";
import { gitRepository } from "../helpers/git.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";
import { REPOSITORY_KINDS } from "../../src/resources/index.js";

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((world) => world.stop()));
});

async function world(generate = 0): Promise<RunningSandbox> {
  const started = await sandbox({ generate });
  running.push(started);
  return started;
}

async function requests(world: RunningSandbox): Promise<number> {
  return ((await call(world, "GET", "/_sandbox/stats")).body as { requests_total: number })
    .requests_total;
}

/** acme/api's main as the demo world has it, but with enforce_admins, and acme/web's main. */
const demoConfig = (approvals: number) => `version: 1
repositories:
  - name: acme/api
    branch_protection:
      main:
        required_status_checks: { strict: true, checks: [{ context: ci/build, app_id: 15368 }] }
        enforce_admins: true
        required_pull_request_reviews:
          dismiss_stale_reviews: true
          required_approving_review_count: ${approvals}
        restrictions: null
  - name: acme/web
    branch_protection:
      main:
        required_status_checks: null
        enforce_admins: false
        required_pull_request_reviews: null
        restrictions: null
`;

function plan(stdout: string): Plan {
  return JSON.parse(stdout) as Plan;
}

describe("plan --changed-from REF", () => {
  it("reads and plans only the changed resource, telling its own change from what already differed", async () => {
    const sb = await world();
    const repo = gitRepository();
    repo.write({ "forgeplan.yaml": demoConfig(1) });
    repo.commit("base");
    repo.write({ "forgeplan.yaml": demoConfig(2) });
    const args = [
      "plan",
      "-c",
      "forgeplan.yaml",
      "--sandbox-url",
      sb.url,
      "--changed-from",
      "HEAD",
    ];

    const before = await requests(sb);
    const text = await runInProcess(args, { cwd: repo.dir });
    // GET /rate_limit, acme/api (to locate it: archived repositories take no writes) and the
    // protection of its main: nothing of acme/web is read.
    expect((await requests(sb)) - before).toBe(3);
    expect(text.stderr).toBe("");
    expect(text.code).toBe(2);
    expect(text.stdout).toBe(
      [
        "~ github/acme/api/branch_protection/main will be updated",
        "    required_pull_request_reviews.required_approving_review_count: 1 → 2",
        "",
        "Already differs on the service, not changed since HEAD:",
        "",
        "~ github/acme/api/branch_protection/main will be updated",
        "    enforce_admins: false → true",
        "",
        "Plan: 0 to create, 1 to update, 0 to delete, 0 to report, 0 unchanged.",
        "Left out as unchanged since HEAD: 1 resource. For the whole plan, plan without --changed-from (in the Action: changed-from: none).",
        "Reads: 2 REST requests (0 from the cache), 0 GraphQL queries (0 points) · ≥ 2 s at 5,000 REST requests/h",
        "",
      ].join("\n"),
    );

    const json = await runInProcess([...args, "--format", "json", "--out", "plan.json"], {
      cwd: repo.dir,
    });
    const saved = plan(json.stdout);
    expect(saved.partial).toEqual({
      changed_from: "HEAD",
      unchanged: 1,
      unlisted: [],
      no_longer_managed: [],
    });
    expect(saved.changes.map((change) => [change.address, change.diff])).toEqual([
      [
        "github/acme/api/branch_protection/main",
        [
          { path: "enforce_admins", before: false, after: true, preexisting: true },
          {
            path: "required_pull_request_reviews.required_approving_review_count",
            before: 1,
            after: 2,
          },
        ],
      ],
    ]);
    expect(JSON.parse(readFileSync(join(repo.dir, "plan.json"), "utf8"))).toEqual({
      ...saved,
      config: ["forgeplan.yaml"],
    });

    const markdown = await runInProcess([...args, "--format", "markdown"], { cwd: repo.dir });
    expect(markdown.stdout).toContain(
      "<details><summary>ℹ️ Already differs on the service, not changed since HEAD: 1 resource</summary>",
    );
    expect(markdown.stdout).toContain("_Left out as unchanged since HEAD: 1 resource.");
  });

  it("keeps --reads: the changed repository is read as the read option says", async () => {
    const sb = await world();
    const repo = gitRepository();
    repo.write({ "forgeplan.yaml": demoConfig(1) });
    repo.commit("base");
    repo.write({ "forgeplan.yaml": demoConfig(2) });
    const queries = async () =>
      ((await call(sb, "GET", "/_sandbox/stats")).body as { graphql_queries: number })
        .graphql_queries;
    for (const [reads, bulk] of [
      ["graphql", true],
      ["rest", false],
    ] as const) {
      const before = await queries();
      const planned = await runInProcess(
        ["plan", "--sandbox-url", sb.url, "--changed-from", "HEAD", "--reads", reads],
        { cwd: repo.dir },
      );
      expect(planned.code).toBe(2);
      expect((await queries()) > before).toBe(bulk);
    }
  });

  it("refuses to apply the partial plan unless told, then applies and verifies just that", async () => {
    const sb = await world();
    const repo = gitRepository();
    repo.write({ "forgeplan.yaml": demoConfig(1) });
    repo.commit("base");
    repo.write({ "forgeplan.yaml": demoConfig(2) });
    const at = ["--sandbox-url", sb.url];
    await runInProcess(
      ["plan", "-c", "forgeplan.yaml", ...at, "--changed-from", "HEAD", "--out", "plan.json"],
      { cwd: repo.dir },
    );
    const refused = await runInProcess(["apply", "plan.json", ...at, "--auto-approve"], {
      cwd: repo.dir,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "forgeplan: apply: plan.json holds only what changed since HEAD (plan --changed-from), not the whole configuration: apply it with --allow-partial, or make a whole plan\n",
    );
    const applied = await runInProcess(
      ["apply", "plan.json", ...at, "--auto-approve", "--allow-partial"],
      { cwd: repo.dir },
    );
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Apply: 1 applied, 0 failed, 0 held, 0 skipped.");
    // acme/web was left out of the plan, so it is still unprotected.
    expect((await call(sb, "GET", "/repos/acme/web/branches/main/protection")).status).toBe(404);
    const protection = await call(sb, "GET", "/repos/acme/api/branches/main/protection");
    expect(protection.body).toMatchObject({
      enforce_admins: { enabled: true },
      required_pull_request_reviews: { required_approving_review_count: 2 },
    });
  });

  it("reads the one changed repository and its properties rather than listing its owner", async () => {
    const sb = await world(30);
    const repo = gitRepository();
    const config = (linear: boolean) => `version: 1
repositories:
  - name: acme/*
    where: { properties: { team: web } }
    branch_protection:
      main: { required_status_checks: null, enforce_admins: true, required_pull_request_reviews: null, restrictions: null }
  - name: acme/web
    branch_protection:
      main: { required_linear_history: ${linear} }
`;
    repo.write({ "forgeplan.yaml": config(false) });
    repo.commit("base");
    repo.write({ "forgeplan.yaml": config(true) });
    const before = await requests(sb);
    const result = await runInProcess(
      ["plan", "--sandbox-url", sb.url, "--changed-from", "HEAD", "--format", "json"],
      { cwd: repo.dir },
    );
    // GET /rate_limit, acme/web and its custom properties, and its main protection.
    expect((await requests(sb)) - before).toBe(4);
    const planned = plan(result.stdout);
    expect(planned.partial?.unlisted).toEqual(["acme/* where team=web"]);
    expect(planned.changes.map((change) => [change.address, change.action])).toEqual([
      ["github/acme/web/branch_protection/main", "create"],
    ]);
    // What the glob sets was already asked for: the service differs there since before the change.
    expect(planned.changes[0]!.diff).toEqual([
      { path: "enforce_admins", before: false, after: true, preexisting: true },
      { path: "required_linear_history", before: false, after: true },
    ]);
  });

  it("lists every repository a profile edit reaches, reading only those", async () => {
    const sb = await world(30);
    const repo = gitRepository();
    const config = (approvals: number) =>
      [
        "version: 1",
        "profiles:",
        "  reviewed:",
        "    branch_protection:",
        "      dev:",
        "        required_status_checks: null",
        "        enforce_admins: false",
        `        required_pull_request_reviews: { required_approving_review_count: ${approvals} }`,
        "        restrictions: null",
        "repositories:",
        "  - name: acme/repo-*",
        "    webhooks:",
        "      hooks: [{ url: https://ci.acme.example/hooks/forge, events: [push] }]",
        ...Array.from({ length: 30 }, (_, index) => {
          const name = `acme/repo-${String(index + 1).padStart(4, "0")}`;
          return index % 3 === 0
            ? `  - { name: ${name}, profiles: [reviewed] }`
            : `  - { name: ${name}, branch_protection: { main: null } }`;
        }),
        "",
      ].join("\n");
    repo.write({ "forgeplan.yaml": config(1) });
    repo.commit("base");
    repo.write({ "forgeplan.yaml": config(2) });
    const before = await requests(sb);
    const result = await runInProcess(
      [
        ...["plan", "-c", "forgeplan.yaml", "--sandbox-url", sb.url],
        ...["--changed-from", "HEAD", "--format", "json"],
      ],
      { cwd: repo.dir },
    );
    expect(result.stderr).toBe("");
    const changes = plan(result.stdout).changes;
    expect(changes.map((change) => change.address)).toEqual(
      Array.from(
        { length: 10 },
        (_, index) =>
          `github/acme/repo-${String(index * 3 + 1).padStart(4, "0")}/branch_protection/dev`,
      ),
    );
    expect(changes.every((change) => change.action === "create")).toBe(true);
    // GET /rate_limit, the listing of acme (32 repositories: one page), and the ten protections.
    expect((await requests(sb)) - before).toBe(12);
    // The hooks of 30 repositories and the 20 unprotected mains are left out.
    expect(plan(result.stdout).partial?.unchanged).toBe(50);
  });

  it("plans everything as new when the configuration did not exist at the revision", async () => {
    const sb = await world();
    const repo = gitRepository();
    repo.write({ "README.md": "settings\n" });
    repo.commit("base");
    repo.write({ "forgeplan.yaml": demoConfig(2) });
    const at = ["-c", "forgeplan.yaml", "--sandbox-url", sb.url, "--format", "json"];
    const changed = await runInProcess(["plan", ...at, "--changed-from", "HEAD"], {
      cwd: repo.dir,
    });
    const whole = await runInProcess(["plan", ...at], { cwd: repo.dir });
    expect(plan(changed.stdout).changes).toEqual(plan(whole.stdout).changes);
    expect(plan(changed.stdout).partial).toEqual({
      changed_from: "HEAD",
      unchanged: 0,
      unlisted: [],
      no_longer_managed: [],
    });
  });

  it("names what the change stops managing, and reads a directory of files as it was", async () => {
    const sb = await world();
    const repo = gitRepository();
    const api = demoConfig(1).split("  - name: acme/web")[0]!;
    const web = `version: 1\nrepositories:\n  - name: acme/web${demoConfig(1).split("  - name: acme/web")[1]}`;
    repo.write({ "settings/api.yaml": api, "settings/web.yaml": web });
    repo.commit("base");
    repo.write({ "settings/web.yaml": null, "settings/more.yml": "version: 1\n" });
    const result = await runInProcess(
      ["plan", "-c", "settings", "--sandbox-url", sb.url, "--changed-from", "HEAD"],
      { cwd: repo.dir },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        "No changes. Live state matches the desired state.",
        "Left out as unchanged since HEAD: 1 resource. For the whole plan, plan without --changed-from (in the Action: changed-from: none).",
        "No longer in the configuration, left as they are on the service: github/acme/web: the protection of branch main.",
        "Reads: 0 REST requests (0 from the cache), 0 GraphQL queries (0 points)",
        "",
      ].join("\n"),
    );
  });

  it("plans a section entry that changed, and the repositories a change of defaults reaches", async () => {
    const sb = await world();
    const repo = gitRepository();
    const demo = readFileSync(join(repoRoot, "examples/forgeplan.yaml"), "utf8");
    repo.write({ "forgeplan.yaml": demo });
    repo.commit("base");
    const args = ["plan", "--sandbox-url", sb.url, "--changed-from", "HEAD", "--format", "json"];
    repo.write({ "forgeplan.yaml": demo.replace("- name: Legacy triage # board 2", "- id: 2") });
    const boards = plan((await runInProcess(args, { cwd: repo.dir })).stdout);
    expect(boards.changes.map((change) => [change.address, change.action])).toEqual([
      ["gitlab/acme/api/board/#2", "delete"],
    ]);
    // Named by id now: the project's list of boards to delete is one resource, which changed.
    expect(boards.partial?.no_longer_managed).toEqual([]);

    repo.write({
      "forgeplan.yaml": demo.replace(
        "\nrepositories:\n",
        "\ndefaults:\n  invitations: { report_expired: false }\nrepositories:\n",
      ),
    });
    const before = await requests(sb);
    const defaults = plan((await runInProcess(args, { cwd: repo.dir })).stdout);
    // GET /rate_limit, both repositories (each located) and their invitations (the defaults reach
    // acme/web too), and the unchanged migration audit, read for the repositories a running
    // migration would hold.
    expect((await requests(sb)) - before).toBe(6);
    expect(defaults.changes.map((change) => change.address)).toEqual([
      "github/acme/api/invitation/1",
      "github/acme/api/invitation/2",
      "github/acme/api/invitation/3",
    ]);
  });

  it("takes a secret read from another variable for a change, never for its value", async () => {
    const sb = await world();
    const repo = gitRepository();
    const config = (variable: string) => `version: 1
repositories:
  - name: acme/web
    webhooks:
      hooks:
        - { url: https://deploy.acme.example/hook, events: [push], secret: "\${${variable}}" }
`;
    repo.write({ "forgeplan.yaml": config("DEPLOY_SECRET") });
    repo.commit("base");
    const env = { DEPLOY_SECRET: "one", NEXT_SECRET: "one" };
    const args = ["plan", "--sandbox-url", sb.url, "--changed-from", "HEAD", "--format", "json"];
    const same = plan((await runInProcess(args, { cwd: repo.dir, env })).stdout);
    expect(same.changes).toEqual([]);
    repo.write({ "forgeplan.yaml": config("NEXT_SECRET") });
    const renamed = plan((await runInProcess(args, { cwd: repo.dir, env })).stdout);
    expect(renamed.changes.map((change) => [change.address, change.action])).toEqual([
      ["github/acme/web/webhook/https://deploy.acme.example/hook", "create"],
    ]);
  });

  it("stops with one line when the revision cannot be read or its configuration is invalid", async () => {
    const sb = await world();
    const repo = gitRepository();
    repo.write({
      "forgeplan.yaml": "version: 1\nrepositories: [{ name: acme/api, colour: red }]\n",
    });
    const head = repo.commit("broken");
    repo.write({ "forgeplan.yaml": demoConfig(1) });
    const run = (ref: string) =>
      runInProcess(["plan", "--sandbox-url", sb.url, "--changed-from", ref], { cwd: repo.dir });
    const unknown = await run("no-such-branch");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `forgeplan: plan: --changed-from no-such-branch: no-such-branch is not a commit of the git repository at ${repo.dir} (fetch it first)\n`,
    );
    const invalid = await run(head);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toBe(
      [
        `${head}:forgeplan.yaml:2:34: repositories[0].colour: unknown key "colour"; expected one of: name, exclude, where, target, owner_type, profiles, ${REPOSITORY_KINDS.map((kind) => kind.repository.setting.key).join(", ")}`,
        `forgeplan: plan: the configuration at ${head} has 1 error; plan without --changed-from to see the whole plan`,
        "",
      ].join("\n"),
    );
    const plain = configFile(demoConfig(1));
    const outside = await runInProcess(
      ["plan", "-c", plain, "--sandbox-url", sb.url, "--changed-from", "HEAD"],
      { cwd: repo.dir },
    );
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(
      /^forgeplan: plan: --changed-from HEAD: fatal: not a git repository/,
    );
  });
});
