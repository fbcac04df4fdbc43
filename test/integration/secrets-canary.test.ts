import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { escapeInline } from "../../src/render/escape.js";
import { demoWorld, type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { runActionStep } from "../ci/helpers.js";
import { runInProcess } from "../helpers/cli.js";

/**
 * The canary test of issue #17: a value in every secret source — the target token, a webhook
 * secret, an authorization header, and a token interpolated into a field that is not secret (a hook
 * URL's query) — and a service that echoes requests back in its error messages, as a broken proxy
 * does. No canary may appear, in any form, in any stream or file forgeplan writes.
 */
const CANARIES = {
  /** The target token; the sandbox's admin has it, so every request carries it. */
  GITHUB_TOKEN: "ghp_CanaryTok3n.q7f3c9a1e5b2d",
  HOOK_SECRET: 'whsec "CanarySecr3t" & <b>*x*</b> \\ a/b+c=',
  HOOK_AUTH: "Bearer CanaryAuth_H3ader+/= 'q'",
  /** Interpolated into `url:`, which is not a secret key. */
  COLLECTOR_TOKEN: "ct_CanaryColl3ctor/+=~x",
  /** An Actions secret of a repository and of the organization, sealed only at apply. */
  ACTIONS_SECRET: "npm_CanaryActi0nsSecret&'\"<x>",
  /** A GitLab CI/CD variable's value as written (read from the environment, compared exactly). */
  GITLAB_VARIABLE: "glv_CanaryGitlabVar1able&'\"<x> y",
  /**
   * A GitLab variable's live value no configuration names (a project's and the instance's): the
   * run never learns it as a secret.
   */
  GITLAB_LIVE: "CanaryGitlabL1ve_before/+=",
  /** A GitLab hook's secret token and a custom header's value (the gitlab_hook kind). */
  GL_HOOK_TOKEN: "glht_CanaryGlT0ken<&>'\"",
  GL_HOOK_HEADER: "Bearer CanaryGlHead3r+/=",
};
/** A part of each canary that every encoding leaves as it is. */
const CORES = [
  "CanaryTok3n",
  "CanarySecr3t",
  "CanaryAuth",
  "CanaryColl3ctor",
  "CanaryActi0ns",
  "CanaryGitlabVar1able",
  "CanaryGitlabL1ve",
  "CanaryGlT0ken",
  "CanaryGlHead3r",
];

/** The forms the issue names: raw, JSON-escaped, URL-encoded (component and form), markdown-escaped. */
function forms(value: string): string[] {
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    escapeInline(value),
    value.replace(/[!-/:-@[-`{-~]/g, "\\$&"),
  ];
}

function expectNoCanary(where: string, text: string): void {
  for (const value of Object.values(CANARIES)) {
    for (const form of forms(value)) {
      if (text.includes(form)) throw new Error(`${where} holds a canary: …${form}…`);
    }
  }
  for (const core of CORES) {
    if (text.includes(core)) throw new Error(`${where} holds part of a canary: ${core}`);
  }
}

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/**
 * A loopback proxy to the sandbox that answers some requests with an error whose message echoes
 * the request's body and headers: creating a hook (500), editing one or its config (422), setting
 * an Actions secret (422, the body holding the sealed value), reading the protection of acme/web's main (403),
 * writing a GitLab CI/CD variable of a project or the instance (400, the body holding its value),
 * creating a GitLab hook (500)
 * and editing one (422). Everything else is forwarded.
 */
async function echoingProxy(upstream: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      const status =
        req.method === "POST" && /\/hooks$/.test(path)
          ? 500
          : (req.method === "PATCH" && /\/hooks\/\d+(\/config)?$/.test(path)) ||
              (req.method === "PUT" && /^\/api\/v4\/.*\/hooks\/\d+$/.test(path)) ||
              (req.method === "PUT" && /\/actions\/secrets\/[^/]+$/.test(path))
            ? 422
            : req.method === "GET" && path.startsWith("/repos/acme/web/branches/main/protection")
              ? 403
              : req.method !== "GET" &&
                  /^\/api\/v4\/(projects\/[^/]+\/variables|admin\/ci\/variables)/.test(path)
                ? 400
                : undefined;
      if (status !== undefined) {
        const headers = JSON.stringify(req.headers);
        res.writeHead(status, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            message: `could not process ${body || "the request"} sent with ${headers}`,
            errors: [{ message: `request headers were ${headers}` }],
          }),
        );
        return;
      }
      const forward = request(
        `${upstream}${path}`,
        { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let sandbox: RunningSandbox;
let proxy: { url: string; server: Server };
let workspace: string;
const env = { ...CANARIES, FORGEPLAN_DEBUG: "1" };

async function sandboxApi(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${CANARIES.GITHUB_TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as unknown;
}

beforeAll(async () => {
  const seed = structuredClone(demoWorld);
  for (const user of seed.users ?? []) {
    // An administrator too: the GitLab instance's variables are an administrator's.
    if (user.login === "octo-admin")
      Object.assign(user, { token: CANARIES.GITHUB_TOKEN, site_admin: true });
  }
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-canary-"));
  writeFileSync(join(dir, "world.yaml"), YAML.stringify(seed));
  sandbox = await startSandbox({ port: 0, seed: join(dir, "world.yaml") });
  proxy = await echoingProxy(sandbox.url);
  // A live hook whose URL already carries the interpolated token, as the service lists it.
  await sandboxApi("POST", "/repos/acme/api/hooks", {
    config: { url: `https://collector.example/h?t=${CANARIES.COLLECTOR_TOKEN}` },
    events: ["push"],
  });
  // GitLab variables whose live value is a canary: one the configuration changes, one it leaves.
  for (const key of ["LEGACY_TOKEN", "UNMANAGED"]) {
    await sandboxApi("POST", "/api/v4/projects/acme%2Fapi/variables", {
      key,
      value: CANARIES.GITLAB_LIVE,
    });
    await sandboxApi("POST", "/api/v4/admin/ci/variables", {
      key: `INSTANCE_${key}`,
      value: CANARIES.GITLAB_LIVE,
    });
  }
  workspace = mkdtempSync(join(tmpdir(), "forgeplan-canary-workspace-"));
  writeFileSync(
    join(workspace, "forgeplan.yaml"),
    [
      "version: 1",
      "targets:",
      `  github: { type: repository, base_url: "${proxy.url}", token_env: GITHUB_TOKEN }`,
      `  gitlab: { type: gitlab, base_url: "${proxy.url}", token_env: GITHUB_TOKEN }`,
      "repositories:",
      "  - name: acme/api",
      "    webhooks:",
      "      hooks:",
      '        - url: "https://collector.example/h?t=${COLLECTOR_TOKEN}"',
      '          secret: "${HOOK_SECRET}"',
      '        - url: "https://collector2.example/h?t=${COLLECTOR_TOKEN}"',
      '          secret: "${HOOK_SECRET}"',
      '          authorization_header: "${HOOK_AUTH}"',
      "    secrets:",
      '      actions: { CANARY_TOKEN: "${ACTIONS_SECRET}" }',
      "  - name: acme/web",
      "    branch_protection:",
      "      main: { enforce_admins: true }",
      "organizations:",
      "  - name: acme",
      "    secrets:",
      '      actions: { ORG_CANARY: { value: "${ACTIONS_SECRET}", visibility: private } }',
      "    webhooks:",
      "      hooks:",
      '        - { url: "https://org-collector.example/h", secret: "${HOOK_SECRET}" }',
      "projects:",
      "  - project: acme/api",
      "    variables:",
      "      items:",
      '        LEGACY_TOKEN: { value: "${GITLAB_VARIABLE}" }',
      '        NEW_TOKEN@production: { value: "${GITLAB_VARIABLE}", raw: true }',
      "    webhooks:",
      "      hooks:",
      "        - url: https://gl-collector.example/h",
      '          token: "${GL_HOOK_TOKEN}"',
      '          custom_headers: { X-Auth: "${GL_HOOK_HEADER}" }',
      "        - url: https://ci.acme.example/gitlab/api",
      "          events: [push, tag_push]",
      '          token: "${GL_HOOK_TOKEN}"',
      '          custom_headers: { X-Acme-Route: "${GL_HOOK_HEADER}" }',
      "instance:",
      "  - variables:",
      "      items:",
      '        INSTANCE_LEGACY_TOKEN: { value: "${GITLAB_VARIABLE}" }',
      '        INSTANCE_NEW_TOKEN: { value: "${GITLAB_VARIABLE}", raw: true }',
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await new Promise((resolve) => proxy.server.close(resolve));
  await sandbox.stop();
});

describe("canary values", () => {
  it("appear in no output of plan, apply, drift and export, nor in any file they write", async () => {
    const run = (argv: string[]) => runInProcess(argv, { env, cwd: workspace });
    const fast = ["--write-interval", "0"];
    const results = {
      "plan --format json --out": await run([
        "plan",
        ...fast,
        "--format",
        "json",
        "--out",
        "plan.json",
      ]),
      "plan --format markdown": await run(["plan", ...fast, "--format", "markdown"]),
      "plan --format text": await run(["plan", ...fast]),
      "apply --format json": await run(["apply", ...fast, "--auto-approve", "--format", "json"]),
      "apply --format markdown": await run([
        "apply",
        ...fast,
        "--auto-approve",
        "--format",
        "markdown",
      ]),
      "apply plan.json": await run(["apply", "plan.json", ...fast, "--auto-approve"]),
      drift: await run(["drift", ...fast, "--cache", "cache", "--report-issue", "acme/api"]),
      "drift, answered from the cache": await run(["drift", ...fast, "--cache", "cache"]),
      export: await run(["export", "--repo", "acme/api"]),
      "export --org": await run(["export", "--org", "acme"]),
      "export --project": await run(["export", "--project", "acme/api"]),
      "export --instance": await run(["export", "--instance"]),
      // GitLab's part alone plans without errors, so its hook create and edit are sent and echoed.
      "apply --target (GitLab hooks)": await run([
        "apply",
        ...fast,
        "--target",
        "gitlab/acme/api/gitlab_hook/*",
        "--auto-approve",
        "--format",
        "json",
      ]),
    };
    for (const [command, result] of Object.entries(results)) {
      expectNoCanary(`${command} stdout`, result.stdout);
      expectNoCanary(`${command} stderr`, result.stderr);
    }

    // The echoes did reach forgeplan, and it said so without the values.
    const plan = results["plan --format json --out"];
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain("could not process");
    expect(plan.stdout).toContain("https://collector2.example/h?t=(sensitive)");
    expect(results["apply --format json"].stdout).toContain("could not process");
    // The saved plan, redacted, still matches a fresh plan redacted the same way.
    expect(results["apply plan.json"].stderr, results["apply plan.json"].stderr).not.toContain(
      "refused",
    );
    expect(results["apply plan.json"].stdout).toContain("could not process");
    // The second drift run was answered from the sealed cache, values restored.
    expect(results["drift, answered from the cache"].stderr).toMatch(
      /[1-9]\d* of \d+ requests answered 304 Not Modified/,
    );
    // The same plan; only its budget line says what came from the cache.
    const withoutReads = (text: string) => text.replace(/^Reads: .*$/m, "");
    expect(withoutReads(results["drift, answered from the cache"].stdout)).toBe(
      withoutReads(results.drift.stdout),
    );
    expect(results.export.stdout).toContain("url: https://collector.example/h?t=(sensitive)");
    // The secrets were sent sealed, and refused with the body echoed: forgeplan said so.
    expect(results["apply --format json"].stdout).toContain("github/acme/secret/ORG_CANARY");
    expect(results["export --org"].code).toBe(0);
    // GitLab variables: the live value changed and the new one's create were planned, refused with
    // their bodies echoed, and said so; export wrote placeholders.
    expect(plan.stdout).toContain("gitlab/acme/api/gitlab_variable/LEGACY_TOKEN");
    expect(results["apply --format json"].stdout).toContain(
      "gitlab/acme/api/gitlab_variable/NEW_TOKEN@production",
    );
    expect(results["export --project"].stdout).toContain("${ACME_API__UNMANAGED}");
    // The instance's too, under an administrator's token.
    expect(plan.stdout).toContain("gitlab/(instance)/gitlab_variable/INSTANCE_LEGACY_TOKEN");
    expect(results["apply --format json"].stdout).toContain(
      "gitlab/(instance)/gitlab_variable/INSTANCE_NEW_TOKEN",
    );
    expect(results["export --instance"].stdout).toContain("${INSTANCE__INSTANCE_UNMANAGED}");
    // GitLab's hooks are planned with their token and header value as references only.
    expect(plan.stdout).toContain("gitlab/acme/api/gitlab_hook/https://gl-collector.example/h");
    const gitlab = results["apply --target (GitLab hooks)"].stdout;
    expect(gitlab).toMatch(
      /gitlab_hook\/https:\/\/gl-collector\.example\/h[\s\S]*could not process/,
    );
    expect(results["export --project"].stdout).toContain("token: ${ACME_API_HOOK_2_TOKEN}");

    const cached = filesUnder(join(workspace, "cache"));
    expect(cached.map((file) => readFileSync(file, "utf8")).join()).toContain(
      "(sensitive:COLLECTOR_TOKEN:",
    );
    for (const file of [join(workspace, "plan.json"), ...cached]) {
      expectNoCanary(file, readFileSync(file, "utf8"));
    }
    const issues = (await sandboxApi("GET", "/repos/acme/api/issues?state=all")) as Array<{
      body: string;
    }>;
    expect(issues.some((issue) => issue.body.includes("forgeplan-drift"))).toBe(true);
    expectNoCanary("the drift issue", JSON.stringify(issues));
  });

  it("appear nowhere the Action writes: log, outputs, job summary, plan file, comment", async () => {
    const number = (
      (await sandboxApi("POST", "/repos/acme/api/issues", { title: "PR" })) as {
        number: number;
      }
    ).number;
    const runner = { ...sandbox, url: proxy.url };
    const steps = [
      await runActionStep({
        sandbox: runner,
        cwd: workspace,
        inputs: { "github-token": CANARIES.GITHUB_TOKEN, "write-interval": "0" },
        env,
        event: { name: "pull_request", payload: { pull_request: { number } } },
      }),
      await runActionStep({
        sandbox: runner,
        cwd: workspace,
        inputs: { command: "apply", "github-token": CANARIES.GITHUB_TOKEN, "write-interval": "0" },
        env,
      }),
    ];
    for (const step of steps) {
      // The runner is told to mask each value before anything else is written.
      const masks = step.log.match(/^(::add-mask::.*\n)+/)?.[0] ?? "";
      const rest = step.log.slice(masks.length);
      expect(masks).toContain(`::add-mask::${CANARIES.GITHUB_TOKEN}\n`);
      expect(masks).toContain(`::add-mask::${CANARIES.COLLECTOR_TOKEN}\n`);
      expect(masks).toContain(`::add-mask::${CANARIES.HOOK_SECRET}\n`);
      expectNoCanary("the Action's log", rest);
      expectNoCanary("the job summary", step.summary);
      for (const file of step.files) expectNoCanary(file, readFileSync(file, "utf8"));
    }
    expect(steps[0]!.log).toContain("forgeplan: pull-request comment created");
    expect(steps[1]!.summary).toContain("could not process");
    const comments = await sandboxApi("GET", `/repos/acme/api/issues/${number}/comments`);
    expect(JSON.stringify(comments)).toContain("forgeplan");
    expectNoCanary("the pull-request comment", JSON.stringify(comments));
  });
});
