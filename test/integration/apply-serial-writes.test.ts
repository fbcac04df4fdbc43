import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await world?.stop();
  proxy = undefined;
});

interface Write {
  /** "PUT /repos/acme/repo-0001/branches/main/protection" */
  request: string;
  arrived: number;
  answered: number;
}

/**
 * A loopback proxy in front of the sandbox that holds each write `holdMs` before passing it on (a
 * slow service), and records when each write arrived and when its answer had left.
 */
async function slowWrites(target: string, holdMs: number) {
  const writes: Write[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const upstream = new URL(target);
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const write = req.method !== "GET";
      if (write) {
        const seen: Write = {
          request: `${req.method} ${req.url}`,
          arrived: performance.now(),
          answered: Number.NaN,
        };
        writes.push(seen);
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        res.on("close", () => {
          inFlight--;
          seen.answered = performance.now();
        });
      }
      setTimeout(
        () => {
          const forward = request(
            {
              host: upstream.hostname,
              port: upstream.port,
              method: req.method,
              path: req.url,
              headers: req.headers,
            },
            (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            },
          );
          // A held write whose sandbox has stopped (its test is over) fails here, not in a later
          // file's test: the integration files share their worker.
          forward.on("error", () => res.destroy());
          forward.end(Buffer.concat(chunks));
        },
        write ? holdMs : 0,
      );
    });
  });
  await new Promise<void>((resolve) => proxy?.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, writes, maxInFlight: () => maxInFlight };
}

/** Two protections and both hooks of every generated repository: four writes to each. */
const config = configFile(`version: 1
repositories:
  - name: acme/repo-*
    owner_type: organization
    branch_protection:
      main:
        enforce_admins: true
        required_pull_request_reviews: { required_approving_review_count: 1 }
      dev:
        enforce_admins: false
        required_pull_request_reviews: { required_approving_review_count: 2 }
    webhooks:
      mode: additive
      hooks:
        - url: https://ci.acme.example/hooks/forge
          events: [push, pull_request]
          content_type: json
          active: true
        - url: https://chat.acme.example/notify
          events: [issues, issue_comment]
          content_type: json
          active: true
`);

describe("apply with writes slower than the write interval", () => {
  it("has one write in flight at a time, spaced, each repository's in the plan's order", async () => {
    world = await sandbox({ generate: 3 });
    const intervalMs = 100;
    const service = await slowWrites(world.url, 2 * intervalMs);
    const run = await runInProcess([
      "apply",
      "-c",
      config,
      "--sandbox-url",
      service.url,
      "--auto-approve",
      "--write-interval",
      String(intervalMs),
      "--format",
      "json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      plan: { changes: { requests: { method: string; path: string }[] }[] };
      outcomes: { outcome: string }[];
    };
    expect(report.outcomes.map((o) => o.outcome)).toEqual(Array(12).fill("applied"));

    const { writes } = service;
    expect(writes).toHaveLength(12);
    expect(service.maxInFlight()).toBe(1);
    for (const [i, write] of writes.entries()) {
      const previous = writes[i - 1];
      if (previous === undefined) continue;
      // Each write arrives after the answer to the one before has left, and an interval after it.
      expect(write.arrived).toBeGreaterThanOrEqual(previous.answered);
      expect(write.arrived - previous.arrived).toBeGreaterThanOrEqual(intervalMs);
    }
    const planned = report.plan.changes.flatMap((change) =>
      change.requests.map((r) => `${r.method} ${r.path}`),
    );
    for (const repo of ["repo-0001", "repo-0002", "repo-0003"]) {
      const ofRepo = (list: string[]) => list.filter((r) => r.includes(`/acme/${repo}/`));
      expect(ofRepo(writes.map((w) => w.request))).toEqual(ofRepo(planned));
      expect(ofRepo(planned)).toHaveLength(4);
    }
  });

  it("reports the writes still waiting their turn at an interruption as not attempted", async () => {
    world = await sandbox({ generate: 3 });
    const service = await slowWrites(world.url, 400);
    const controller = new AbortController();
    // Stopped while the first write is held by the service: the other eleven wait in the lane.
    const stopWhileFirstIsHeld = setInterval(() => {
      if (service.writes.length === 0) return;
      clearInterval(stopWhileFirstIsHeld);
      setTimeout(() => controller.abort(), 100);
    }, 5);
    const args = ["-c", config, "--sandbox-url", service.url, "--auto-approve"];
    const { code, stdout, stderr } = await runInProcess(
      ["apply", ...args, "--write-interval", "100"],
      { signal: controller.signal },
    );
    clearInterval(stopWhileFirstIsHeld);
    expect(code).toBe(130);
    expect(service.writes).toHaveLength(1);
    expect(stdout).toContain("Apply: 0 applied, 0 failed, 0 held, 12 skipped.");
    expect(stderr).toContain(
      "forgeplan: apply interrupted. 0 applied, 0 failed, 11 not attempted, 1 without an answer;",
    );
  });
});
