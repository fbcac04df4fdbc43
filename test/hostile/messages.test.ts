import * as z from "zod";
import { describe, expect, it } from "vitest";
import { type Change, makePlan } from "../../src/core/plan.js";
import type { CliIO } from "../../src/cli/io.js";
import { reportEvent } from "../../src/cli/session.js";
import { applyPlan } from "../../src/engine/apply.js";
import type { ForgeError } from "../../src/forge/client.js";
import { RateLimitWaitExceeded } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import { describeError } from "../../src/render/wording.js";
import { answer, clientOf, failure, hostile, json } from "./server.js";

/** Any answer that parses: these cases are about what comes before the shape check. */
const ANY = { name: "anything", schema: z.unknown() };

const SECONDARY = {
  message:
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
};

function stderrOf(): { io: CliIO; lines: string[] } {
  const lines: string[] = [];
  const output = { write: (text: string) => void lines.push(text), isTTY: false };
  const io: CliIO = {
    stdout: output,
    stderr: output,
    stdinIsTTY: false,
    env: {},
    cwd: "/",
    signal: new AbortController().signal,
  };
  return { io, lines };
}

describe("a secondary limit", () => {
  it("past the maximum wait says it is one, with forgeplan's own back-off when no Retry-After came", async () => {
    const service = await hostile((_req, res) => answer(res, 403, json, SECONDARY));
    const { client } = clientOf(service.url, { maxWaitMs: 30_000 });
    const error = await failure(client.get("/repos/acme/api/hooks"));
    expect(error).toBeInstanceOf(RateLimitWaitExceeded);
    expect(error.message).toMatch(
      /^secondary rate limit on \/repos\/\{owner\}\/\{repo\}\/hooks: GET \/repos\/acme\/api\/hooks answered 403: the service said not how long to wait, and forgeplan's own back-off after 1 such answer is 60 s, until .*Z, longer than the maximum wait of 30 s$/,
    );
  });

  it("past the maximum wait names the service's Retry-After", async () => {
    const service = await hostile((_req, res) =>
      answer(res, 403, { ...json, "retry-after": "120" }, SECONDARY),
    );
    const { client } = clientOf(service.url, { maxWaitMs: 30_000 });
    expect((await failure(client.get("/repos/acme/api/hooks"))).message).toMatch(
      /^secondary rate limit on \/repos\/\{owner\}\/\{repo\}\/hooks: GET \/repos\/acme\/api\/hooks answered 403: the service asks to wait 2 min \(Retry-After\), until .*Z, longer than the maximum wait of 30 s$/,
    );
  });

  it("is announced with how long forgeplan waits and why", async () => {
    let answers = 0;
    const service = await hostile((_req, res) =>
      ++answers === 1
        ? answer(res, 403, json, SECONDARY)
        : answers === 2
          ? answer(res, 429, { ...json, "retry-after": "7" }, { message: "slow down" })
          : answer(res, 200, json, {}),
    );
    const { client, events } = clientOf(service.url, { retries: { max: 5, baseMs: 1, capMs: 1 } });
    await client.get("/repos/acme/api/hooks");
    const { io, lines } = stderrOf();
    for (const event of events) reportEvent(io, event);
    expect(lines).toEqual([
      expect.stringMatching(
        /^forgeplan: secondary rate limit on \/repos\/\{owner\}\/\{repo\}\/hooks: GET \/repos\/acme\/api\/hooks answered 403; waiting 60 s until \d\d:\d\d:\d\d UTC, forgeplan's own back-off, as the answer said not how long\n$/,
      ),
      expect.stringMatching(
        /^forgeplan: throttled on GET \/repos\/acme\/api\/hooks \(429\): waiting 7 s until \d\d:\d\d:\d\d UTC, as the service's Retry-After asks\n$/,
      ),
    ]);
  });
});

describe("a request that failed", () => {
  it("after retries says how many attempts it made, through to the plan's error", async () => {
    const service = await hostile((_req, res) =>
      answer(res, 503, json, { message: "Server Error" }),
    );
    const { client } = clientOf(service.url);
    const read = await new ResourceReader("github", client).getOrAbsent(
      "/repos/acme/api/hooks/1",
      ANY,
    );
    expect(read.kind).toBe("error");
    if (read.kind !== "error") return;
    expect(describeError(read.error)).toBe(
      "GET /repos/acme/api/hooks/1 → 503: Server Error (gave up after 3 attempts)",
    );
  });

  it("says its status once when the service's message repeats it", async () => {
    const service = await hostile((_req, res) =>
      answer(res, 403, json, { message: "403 Forbidden" }),
    );
    const { client } = clientOf(service.url, { kind: "planning" });
    const read = await new ResourceReader("gitlab", client).list(
      "/api/v4/groups/1/epics",
      undefined,
      ANY,
    );
    expect(read.kind).toBe("error");
    if (read.kind !== "error") return;
    expect(describeError(read.error)).toBe(
      "GET /api/v4/groups/1/epics?per_page=100 → 403: Forbidden",
    );
  });
});

describe("a write whose answer was lost", () => {
  const change = (path: string): Change => ({
    address: "github/acme/api/webhook/ci",
    kind: "webhook",
    action: "update",
    target: "github",
    scope: "acme/api",
    name: "ci",
    diff: [],
    requests: [{ method: "PATCH", path, body: { active: false } }],
  });

  it("is reported as one that may have been applied", async () => {
    const service = await hostile((req) => req.socket.destroy());
    const { client } = clientOf(service.url);
    const result = await applyPlan({
      plan: makePlan([change("/repos/acme/api/hooks/1")]),
      clients: new Map([["github", client]]),
      allowDelete: false,
      secrets: new Map(),
      env: {},
    });
    expect(result.outcomes).toHaveLength(1);
    expect(result.outcomes[0]).toMatchObject({
      outcome: "failed",
      request: "PATCH /repos/acme/api/hooks/1",
    });
    expect(result.outcomes[0]?.message).toMatch(
      /^(socket hang up|other side closed|connection reset).* \(gave up after 3 attempts\); its answer was lost, so it may have been applied \(a re-run plans from live state\)$/,
    );
    expect(service.seen).toHaveLength(3);
  });

  it("is not when the service refused it", async () => {
    const service = await hostile((_req, res) =>
      answer(res, 422, json, { message: "Validation Failed", errors: ["bad"] }),
    );
    const { client } = clientOf(service.url);
    const error = await failure(client.request("PATCH", "/repos/acme/api/hooks/1", { body: {} }));
    expect((error as ForgeError).mayHaveBeenApplied).toBe(false);
    const post = await failure(client.request("POST", "/repos/acme/api/hooks", { body: {} }));
    expect((post as ForgeError).mayHaveBeenApplied).toBe(false);
  });

  it("is flagged for a POST a gateway answered 502, which is never repeated", async () => {
    const service = await hostile((_req, res) => answer(res, 502, {}, "<html>Bad gateway</html>"));
    const { client } = clientOf(service.url);
    const error = await failure(client.request("POST", "/repos/acme/api/hooks", { body: {} }));
    expect(error.message).toBe("POST /repos/acme/api/hooks → 502 Bad Gateway");
    expect((error as ForgeError).mayHaveBeenApplied).toBe(true);
    expect(service.seen).toHaveLength(1);
  });
});
