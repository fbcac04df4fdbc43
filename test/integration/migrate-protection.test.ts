import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { checkRulesetBodies } from "../helpers/rulesets.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * The move from classic protection to rulesets, against the demo world: whatever happens, a branch
 * is never left with neither its classic protection nor rules that cover it.
 */

let world: RunningSandbox;
let proxy: Watch | undefined;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
  await world.stop();
});

/** The rule types the migrated ruleset of acme/api main carries (the demo world's protection). */
const MAIN_RULES = ["deletion", "non_fast_forward", "pull_request", "required_status_checks"];

/** Whether acme/api main has its classic protection, or active rules covering it, right now. */
async function mainIsProtected(): Promise<{ classic: boolean; covered: boolean }> {
  const classic =
    (await call(world, "GET", "/repos/acme/api/branches/main/protection")).status === 200;
  const rules = (await call(world, "GET", "/repos/acme/api/rules/branches/main")).body as Array<{
    type: string;
  }>;
  const covered = MAIN_RULES.every((type) => rules.some((rule) => rule.type === type));
  return { classic, covered };
}

interface Watch {
  url: string;
  /** Every request that passed, "METHOD /path", in order. */
  seen: string[];
  /** After each request: whether main was protected (classic or covered). */
  states: Array<{ request: string; classic: boolean; covered: boolean }>;
  stop(): Promise<void>;
}

/**
 * A loopback proxy in front of the sandbox: it forwards each request, then, before answering it,
 * reads main's state directly from the sandbox. `refuse` answers chosen requests itself with a 422.
 */
async function watch(
  refuse: (method: string, path: string) => boolean = () => false,
): Promise<Watch> {
  const seen: string[] = [];
  const states: Watch["states"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const handle = async () => {
        const request = `${req.method} ${req.url?.split("?")[0]}`;
        seen.push(request);
        let status: number;
        let headers: Record<string, string> = { "content-type": "application/json" };
        let text: string;
        if (refuse(req.method ?? "GET", req.url ?? "")) {
          status = 422;
          text = JSON.stringify({ message: "Validation Failed", errors: ["refused by the test"] });
        } else {
          const answer = await fetch(`${world.url}${req.url}`, {
            method: req.method,
            headers: {
              authorization: String(req.headers.authorization ?? ""),
              "content-type": "application/json",
            },
            body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
          });
          status = answer.status;
          text = await answer.text();
          headers = {};
          answer.headers.forEach((value, key) => {
            if (key !== "content-length" && key !== "connection" && key !== "keep-alive")
              headers[key] = value;
          });
        }
        states.push({ request, ...(await mainIsProtected()) });
        res.writeHead(status, headers).end(text);
      };
      handle().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    states,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function migrated(...args: string[]): Promise<string> {
  const result = await runInProcess([
    "migrate",
    "protection-to-rulesets",
    ...args,
    "--sandbox-url",
    world.url,
  ]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

function writes(seen: readonly string[]): string[] {
  return seen.filter(
    (request) => !request.startsWith("GET ") || request.includes("/rules/branches/"),
  );
}

describe("forgeplan migrate protection-to-rulesets", () => {
  it("moves the demo world's classic protection to a ruleset in the safe order; the re-plan is a no-op", async () => {
    const yaml = await migrated("--repo", "acme/api");
    expect(yaml).toContain("# acme/api main: enforce_admins is off");
    const path = configFile(yaml);

    const planned = await runInProcess([
      "plan",
      "-c",
      path,
      "--sandbox-url",
      world.url,
      "--format",
      "json",
    ]);
    expect(planned.code).toBe(2);
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(checkRulesetBodies(plan)).toBe(1);
    const [change] = plan.changes;
    expect(change?.address).toBe("github/acme/api/ruleset/protect main");
    expect(change?.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /repos/acme/api/rulesets",
      "GET /repos/acme/api/rules/branches/main?per_page=100",
      "DELETE /repos/acme/api/branches/main/protection",
    ]);
    expect(change?.requests[1]?.expect).toEqual({
      branch: "main",
      rules: [
        { type: "deletion" },
        { type: "non_fast_forward" },
        {
          type: "pull_request",
          parameters: {
            required_approving_review_count: 1,
            dismiss_stale_reviews_on_push: true,
            require_code_owner_review: false,
            require_last_push_approval: false,
            required_review_thread_resolution: false,
          },
        },
        {
          type: "required_status_checks",
          parameters: {
            strict_required_status_checks_policy: true,
            required_status_checks: [{ context: "ci/build", integration_id: 15368 }],
          },
        },
      ],
    });
    expect(change?.notes?.[0]).toMatch(/^classic protection of main: enforce_admins is off/);

    proxy = await watch();
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      "--sandbox-url",
      proxy.url,
      "--auto-approve",
    ]);
    expect(applied.stdout).toContain("Verified: re-plan shows no changes.");
    expect(applied.code).toBe(0);
    expect(writes(proxy.seen)).toEqual([
      "POST /repos/acme/api/rulesets",
      "GET /repos/acme/api/rules/branches/main",
      "DELETE /repos/acme/api/branches/main/protection",
    ]);
    // Between every two requests, main had its classic protection or rules that cover it.
    expect(proxy.states.length).toBe(proxy.seen.length);
    expect(proxy.states.filter((state) => !state.classic && !state.covered)).toEqual([]);
    expect(await mainIsProtected()).toEqual({ classic: false, covered: true });

    const again = await runInProcess(["plan", "-c", path, "--sandbox-url", world.url]);
    expect(again.stdout).toContain("No changes.");
    expect(again.code).toBe(0);
  });

  it("with --stage creates the ruleset in evaluate beside the classic protection, and replaces it once active", async () => {
    const yaml = await migrated("--repo", "acme/api", "--stage");
    expect(yaml).toContain("enforcement: evaluate");
    const staged = configFile(yaml);
    const first = await runInProcess([
      "plan",
      "-c",
      staged,
      "--sandbox-url",
      world.url,
      "--format",
      "json",
    ]);
    const [change] = (JSON.parse(first.stdout) as Plan).changes;
    expect(change?.requests.map((request) => request.method)).toEqual(["POST"]);
    expect(change?.notes).toContain(
      "the classic protection of main is kept while the ruleset's enforcement is evaluate: the service applies no rule of such a ruleset; set enforcement: active to replace it",
    );
    expect(
      (await runInProcess(["apply", "-c", staged, "--sandbox-url", world.url, "--auto-approve"]))
        .code,
    ).toBe(0);
    expect(await mainIsProtected()).toEqual({ classic: true, covered: false });

    const active = configFile(yaml.replace("enforcement: evaluate", "enforcement: active"));
    proxy = await watch();
    const applied = await runInProcess([
      "apply",
      "-c",
      active,
      "--sandbox-url",
      proxy.url,
      "--auto-approve",
    ]);
    expect(applied.code).toBe(0);
    expect(writes(proxy.seen)).toEqual([
      expect.stringMatching(/^PUT \/repos\/acme\/api\/rulesets\/\d+$/),
      "GET /repos/acme/api/rules/branches/main",
      "DELETE /repos/acme/api/branches/main/protection",
    ]);
    expect(proxy.states.filter((state) => !state.classic && !state.covered)).toEqual([]);
    expect((await runInProcess(["plan", "-c", active, "--sandbox-url", world.url])).code).toBe(0);
  });

  it("keeps the classic protection when the ruleset is refused", async () => {
    const path = configFile(await migrated("--repo", "acme/api"));
    proxy = await watch((method, url) => method === "POST" && url.endsWith("/rulesets"));
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      "--sandbox-url",
      proxy.url,
      "--auto-approve",
    ]);
    expect(applied.code).toBe(1);
    expect(writes(proxy.seen)).toEqual(["POST /repos/acme/api/rulesets"]);
    expect(await mainIsProtected()).toEqual({ classic: true, covered: false });
  });

  it("keeps the classic protection when the branch's rules do not cover it", async () => {
    const weaker = (await migrated("--repo", "acme/api")).replace(
      "required_approving_review_count: 1",
      "required_approving_review_count: 0",
    );
    const path = configFile(weaker);
    const planned = await runInProcess(["plan", "-c", path, "--sandbox-url", world.url]);
    expect(planned.stdout).toContain(
      "note: this ruleset alone does not cover the classic protection of main (pull_request.required_approving_review_count)",
    );
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      "--sandbox-url",
      world.url,
      "--auto-approve",
    ]);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain(
      "GET /repos/acme/api/rules/branches/main?per_page=100: the answer does not show what the change needs before it goes on (rules of branch main: pull_request.required_approving_review_count: needs 1, service has 0)",
    );
    expect((await mainIsProtected()).classic).toBe(true);
  });

  it("applies a saved migration plan, expectations and all", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forgeplan-migrate-"));
    const config = join(dir, "migrated.yaml");
    writeFileSync(config, await migrated("--repo", "acme/api"));
    const saved = join(dir, "plan.json");
    const at = ["--sandbox-url", world.url];
    expect(
      (await runInProcess(["plan", "-c", config, ...at, "--out", saved], { cwd: dir })).code,
    ).toBe(2);
    const applied = await runInProcess(["apply", saved, ...at, "--auto-approve"], { cwd: dir });
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(await mainIsProtected()).toEqual({ classic: false, covered: true });
  });

  it("selects the branches a configuration protects, and says what to take out of it", async () => {
    const config = configFile(`version: 1
repositories:
  - name: acme/api
    branch_protection:
      main: { enforce_admins: true }
      release: null
`);
    const yaml = await migrated("-c", config);
    expect(yaml).toContain(
      "# acme/api: take branch_protection.main out of the configuration; the rulesets below replace them",
    );
    expect(yaml).toContain("protect main:");
    expect(yaml).not.toContain("protect release");
    const refused = await runInProcess(["migrate", "protection-to-rulesets"], { cwd: tmpdir() });
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "forgeplan: migrate: name the repositories with --repo OWNER/REPO or a config with -c\n",
    });
    const wrong = await runInProcess(["migrate", "protections", "--repo", "acme/api"]);
    expect(wrong.stderr).toBe(
      "forgeplan: migrate: expected 'forgeplan migrate protection-to-rulesets', got 'protections'\n",
    );
  });
});
