import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "./sandbox.js";

/**
 * What the proxy answers a request itself with, instead of forwarding it: `body` as JSON, or `text`
 * as it is (an HTML page from a proxy) with its content type.
 */
export type Refusal =
  { status: number; body: unknown } | { status: number; text: string; contentType: string };

/** One request the proxy forwarded and the sandbox's answer to it. */
export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  path: string;
  status: number;
  /** The answer's JSON, undefined when it had no body. */
  body: unknown;
}

/**
 * Decides, per request as it arrives, whether the proxy answers it itself: `seen` counts the
 * requests with this method and path (without the query) so far, this one included.
 */
export type Refuse = (method: string, path: string, seen: number) => Refusal | undefined;

export interface FailingProxy {
  url: string;
  stop(): Promise<void>;
}

/**
 * A loopback proxy in front of a sandbox that makes one read fail when the test says: every other
 * request is forwarded as it came, and answered as the sandbox answered it (its rate headers too).
 */
export async function failingProxy(
  upstream: string,
  refuse: Refuse,
  observe?: (exchange: Exchange) => void,
): Promise<FailingProxy> {
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const handle = async () => {
        const method = req.method ?? "GET";
        const path = (req.url ?? "/").split("?")[0]!;
        const key = `${method} ${path}`;
        const seen = (counts.get(key) ?? 0) + 1;
        counts.set(key, seen);
        const refusal = refuse(method, path, seen);
        if (refusal !== undefined) {
          const [type, text] =
            "text" in refusal
              ? [refusal.contentType, refusal.text]
              : ["application/json; charset=utf-8", JSON.stringify(refusal.body)];
          res.writeHead(refusal.status, { "content-type": type }).end(text);
          return;
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === "string" && name !== "host" && name !== "content-length") {
            headers[name] = value;
          }
        }
        const answer = await fetch(`${upstream}${req.url ?? "/"}`, {
          method,
          headers,
          body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
        });
        const text = await answer.text();
        observe?.({
          method,
          path: req.url ?? "/",
          status: answer.status,
          body: text === "" ? undefined : (JSON.parse(text) as unknown),
        });
        const returned: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!["content-length", "connection", "keep-alive", "content-encoding"].includes(name)) {
            returned[name] = value;
          }
        });
        res.writeHead(answer.status, returned).end(text);
      };
      handle().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A fresh sandbox for each test of the calling file, and at most one failing proxy in front of it
 * that a test starts with `through`; both are stopped after each test.
 */
export function sandboxBehindProxy(): {
  world(): RunningSandbox;
  through(refuse: Refuse): Promise<string>;
} {
  let world: RunningSandbox | undefined;
  let proxy: FailingProxy | undefined;
  beforeEach(async () => {
    world = await sandbox();
  });
  afterEach(async () => {
    await proxy?.stop();
    proxy = undefined;
    await world?.stop();
  });
  const running = () => {
    if (world === undefined) throw new Error("the sandbox runs only inside a test");
    return world;
  };
  return {
    world: running,
    through: async (refuse) => {
      proxy = await failingProxy(running().url, refuse);
      return proxy.url;
    },
  };
}
