import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { ForgeClient } from "../../src/forge/client.js";
import { commentMarker, upsertStickyComment } from "../../src/report/sticky-comment.js";
import { hostile } from "../hostile/server.js";
import { ADMIN, call, sandbox } from "../sandbox/helpers.js";

const LIST = /^\/repos\/acme\/api\/issues\/1\/comments(\?|$)/;

interface Relayed {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function relay(target: string, req: IncomingMessage, body: string): Promise<Relayed> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string" && !["host", "content-length", "connection"].includes(name)) {
      headers[name] = value;
    }
  }
  const answer = await fetch(`${target}${req.url}`, {
    method: req.method ?? "GET",
    headers,
    ...(body === "" ? {} : { body }),
  });
  const sent: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!["content-length", "transfer-encoding", "connection"].includes(name)) sent[name] = value;
  });
  return { status: answer.status, headers: sent, text: await answer.text() };
}

/**
 * A loopback proxy in front of the sandbox that reads the first `runs` lists of pull request #1's
 * comments at once and answers none of them until all are read: each run finds the thread as it
 * was before any of them wrote, as two runs of one pull request do when they start together.
 */
async function racingProxy(target: string, runs: number) {
  let held = runs;
  const waiting: (() => void)[] = [];
  return await hostile((req, res, body) => {
    void (async () => {
      const gated = req.method === "GET" && LIST.test(req.url ?? "") && held > 0;
      if (gated) held--;
      const answer = await relay(target, req, body);
      if (gated) {
        const gate = new Promise<void>((resolve) => waiting.push(resolve));
        if (waiting.length === runs) for (const release of waiting) release();
        await gate;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.text);
    })();
  });
}

function client(url: string): ForgeClient {
  return new ForgeClient({
    baseUrl: url,
    kind: "repository",
    token: new Secret(ADMIN, "test token"),
    writeIntervalMs: 0,
  });
}

describe("the sticky comment when two runs of one pull request race", () => {
  it("leaves one comment, the oldest, holding one run's plan", async () => {
    const sb = await sandbox();
    await call(sb, "POST", "/repos/acme/api/issues", { body: { title: "PR stand-in" } });
    const proxy = await racingProxy(sb.url, 2);
    const marker = commentMarker("forgeplan.yaml");
    const ref = { owner: "acme", repo: "api", number: 1 };
    const bodies = [`${marker}\nplan of the first push`, `${marker}\nplan of the second push`];

    const results = await Promise.all(
      bodies.map((body) => upsertStickyComment(client(proxy.url), ref, marker, "octo-admin", body)),
    );

    const posts = proxy.seen.filter((seen) => seen.method === "POST");
    expect(posts).toHaveLength(2);
    const listed = (await call(sb, "GET", "/repos/acme/api/issues/1/comments")).body as Array<{
      id: number;
      body: string;
    }>;
    expect(listed).toHaveLength(1);
    expect(bodies).toContain(listed[0]!.body);
    expect(results.map((result) => result.id)).toEqual([listed[0]!.id, listed[0]!.id]);
    expect(results.map((result) => result.action).sort()).toEqual(["created", "updated"]);
    expect(proxy.seen.filter((seen) => seen.method === "DELETE")).toHaveLength(1);
  });
});
