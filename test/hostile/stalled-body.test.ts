import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { ForgeError } from "../../src/forge/client.js";
import { clientOf, failure, hostile, json } from "./server.js";

const PROTECTION = "/repos/acme/api/branches/main/protection";
const BODY = JSON.stringify({ url: "https://x", enforce_admins: { enabled: true } });

/** Sends the headers and the first half of the body, then nothing more, never ending the answer. */
function stall(res: ServerResponse): void {
  res.writeHead(200, { ...json, "content-length": String(BODY.length) });
  res.write(BODY.slice(0, BODY.length / 2));
}

describe("a body that stalls mid-way", () => {
  it("fails the attempt after the idle time, long before the total timeout, and is retried", async () => {
    let answers = 0;
    const service = await hostile((_req, res) => {
      if (answers++ === 0) stall(res);
      else res.writeHead(200, json).end(BODY);
    });
    const { client, events } = clientOf(service.url, { idleTimeoutMs: 200, timeoutMs: 60_000 });
    const started = Date.now();
    expect(await client.get(PROTECTION)).toEqual(JSON.parse(BODY));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(events.filter((event) => event.type === "retry")).toMatchObject([
      {
        type: "retry",
        method: "GET",
        path: PROTECTION,
        reason: "the answer stalled: no bytes for 0.2 s",
      },
    ]);
    expect(service.seen).toHaveLength(2);
  });

  it("fails the request, naming the stall, when every attempt stalls", async () => {
    const service = await hostile((_req, res) => stall(res));
    const { client } = clientOf(service.url, { idleTimeoutMs: 100, timeoutMs: 60_000 });
    const started = Date.now();
    const error = await failure(client.get(PROTECTION));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(ForgeError);
    expect(error.message).toBe(
      `GET ${PROTECTION} → the answer stalled: no bytes for 0.1 s (gave up after 3 attempts)`,
    );
  });

  it("keeps reading a body whose bytes keep coming, however slowly, within the total timeout", async () => {
    const service = await hostile((_req, res) => {
      res.writeHead(200, { ...json, "content-length": String(BODY.length) });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(BODY.slice(sent, sent + 8));
        sent += 8;
        if (sent >= BODY.length) {
          clearInterval(timer);
          res.end();
        }
      }, 60);
    });
    const { client, events } = clientOf(service.url, { idleTimeoutMs: 200, timeoutMs: 60_000 });
    expect(await client.get(PROTECTION)).toEqual(JSON.parse(BODY));
    expect(events.filter((event) => event.type === "retry")).toEqual([]);
  });
});
