import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { CliIO } from "../../src/cli/io.js";
import { runCli } from "../../src/cli/run.js";
import { builtCli, repoRoot, runInProcess } from "../helpers/cli.js";

const LISTENING = /^forgeplan sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\n/;

/** Runs `forgeplan sandbox` in-process with a signal the test controls. */
function startInProcess(argv: string[]) {
  const controller = new AbortController();
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    stdinIsTTY: false,
    env: {},
    cwd: repoRoot,
    signal: controller.signal,
  };
  const exit = runCli(["sandbox", ...argv], io);
  // Up to 10 s: in-process, the first run compiles the sandbox's modules on the fly (vitest), which
  // on a loaded 2-core machine takes seconds; the built command prints it in well under one.
  const url = async (): Promise<string> => {
    for (let i = 0; i < 1000; i++) {
      const match = LISTENING.exec(stdout);
      if (match?.[1]) return match[1];
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no listening line; stderr: ${stderr}`);
  };
  return { url, stop: () => controller.abort(), exit, output: () => ({ stdout, stderr }) };
}

describe("forgeplan sandbox", () => {
  it("prints the listening line first, serves the demo world, and stops cleanly on the signal", async () => {
    const running = startInProcess(["--port", "0", "--rate-limit", "core=40,search=5"]);
    const url = await running.url();
    const answer = await fetch(`${url}/rate_limit`, {
      headers: { Authorization: "token sandbox-admin" },
    });
    expect(((await answer.json()) as { rate: { limit: number } }).rate.limit).toBe(40);
    running.stop();
    expect(await running.exit).toBe(0);
    expect(running.output().stdout.split("\n").at(-2)).toBe(
      "forgeplan sandbox stopped after 1 requests",
    );
  });

  it("runs GitLab's planning paths as a tier, with GitLab.com's limits and generated projects", async () => {
    const running = startInProcess([
      "--gitlab-tier",
      "free",
      "--gitlab-com-limits",
      "--generate-projects",
      "3",
    ]);
    const url = await running.url();
    const get = (path: string) =>
      fetch(`${url}${path}`, { headers: { Authorization: "Bearer sandbox-admin" } });
    expect((await get("/api/v4/groups/1/epics")).status).toBe(403);
    const listed = await get("/api/v4/groups/acme/projects?order_by=id&sort=asc");
    expect(listed.headers.get("x-total")).toBe("5");
    let status = 0;
    for (let i = 0; i < 51 && status !== 429; i++) status = (await get("/api/v4/groups")).status;
    expect(status).toBe(429);
    running.stop();
    expect(await running.exit).toBe(0);
  });

  it("holds a new member back from protections for --gitlab-member-delay milliseconds", async () => {
    const running = startInProcess(["--gitlab-member-delay", "60000"]);
    const url = await running.url();
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { Authorization: "Bearer sandbox-admin", "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const added = await send("POST", "/api/v4/projects/1/members", {
      user_id: 5,
      access_level: 30,
    });
    expect(added.status).toBe(201);
    const named = await send("PATCH", "/api/v4/projects/1/protected_branches/main", {
      allowed_to_push: [{ user_id: 5 }],
    });
    expect(named.status).toBe(422);
    expect(await named.json()).toEqual({
      message: ["Push access levels user is not a member of the project"],
    });
    running.stop();
    expect(await running.exit).toBe(0);
  });

  it("lists every option in --help", async () => {
    const result = await runInProcess(["sandbox", "--help"]);
    for (const flag of [
      "--generate-projects N",
      "--gitlab-tier T",
      "--gitlab-com-limits",
      "--gitlab-member-delay MS",
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });

  it("loads a seed file relative to the working directory", async () => {
    const running = startInProcess(["--seed", "test/sandbox/fixtures/small-world.yaml"]);
    const url = await running.url();
    const answer = await fetch(`${url}/user`, { headers: { Authorization: "Bearer alice-token" } });
    expect(answer.status).toBe(200);
    running.stop();
    expect(await running.exit).toBe(0);
  });

  it.each([
    [["--port", "http"], "forgeplan: sandbox: --port expects a whole number, got 'http'\n"],
    [["--port", "70000"], "forgeplan: sandbox: --port must be at most 65535, got 70000\n"],
    [["--generate=-3"], "forgeplan: sandbox: --generate expects a whole number, got '-3'\n"],
    [
      ["--fail-rate", "1.5"],
      "forgeplan: sandbox: --fail-rate expects a number from 0 to 1, got '1.5'\n",
    ],
    [["--latency", "fast"], "forgeplan: sandbox: --latency expects a whole number, got 'fast'\n"],
    [
      ["--rate-limit", "core"],
      "forgeplan: sandbox: --rate-limit expects CATEGORY=N[,…], got 'core'\n",
    ],
    [["--rate-window", "0"], "forgeplan: sandbox: --rate-window must be at least 1\n"],
    [["--secondary-limit", "0"], "forgeplan: sandbox: --secondary-limit must be at least 1\n"],
    [["--seed", "missing.yaml"], "forgeplan: sandbox: missing.yaml: no such file\n"],
    [
      ["--seed", "test/sandbox/fixtures/small-world.yaml", "--generate", "2"],
      "forgeplan: sandbox: --generate needs an organization 'acme' in the seed\n",
    ],
    [
      ["--gitlab-tier", "gold"],
      "forgeplan: sandbox: --gitlab-tier must be one of free, premium, ultimate, got 'gold'\n",
    ],
  ])("refuses %j with one line", async (argv, message) => {
    const result = await runInProcess(["sandbox", ...argv]);
    expect(result).toEqual({ code: 1, stdout: "", stderr: message });
  });

  it("names the seed file as given, with line and key", async () => {
    const result = await runInProcess([
      "sandbox",
      "--seed",
      "test/sandbox/fixtures/bad-world.yaml",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "forgeplan: sandbox: test/sandbox/fixtures/bad-world.yaml:5: repositories[0].branches: a repository needs at least one branch\n",
    );
  });

  it("reports a port in use", async () => {
    const running = startInProcess([]);
    const port = new URL(await running.url()).port;
    const second = await runInProcess(["sandbox", "--port", port]);
    expect(second.stderr).toBe(`forgeplan: sandbox: port ${port} is already in use\n`);
    running.stop();
    await running.exit;
  });

  it("runs from the built CLI until SIGTERM", async () => {
    const child = spawn(process.execPath, [builtCli, "sandbox", "--port", "0"], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        const match = LISTENING.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.on("exit", () => reject(new Error(`exited early: ${stdout}`)));
    });
    const answer = await fetch(`${url}/repos/acme/api/branches/main/protection`, {
      headers: { Authorization: "Bearer sandbox-admin" },
    });
    expect(answer.status).toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      child.on("exit", (exitCode) => resolve(exitCode));
      child.kill("SIGTERM");
    });
    expect(code).toBe(0);
  });
});
