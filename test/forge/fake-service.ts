import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../src/forge/client.js";

/** A request as the fake service saw it; `at` is the shared clock's time on arrival. */
export interface Received {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON, strings as text; nothing for 204/304. */
  body?: unknown;
  /** Real milliseconds to hold the answer (to exercise timeouts and concurrency). */
  delayMs?: number;
  /** Drop the connection instead of answering (a connection reset). */
  reset?: boolean;
}

export type Handler = (request: Received) => Reply | Promise<Reply>;

/** A loopback HTTP server on port 0 whose answers are scripted by the test. */
export class FakeService {
  readonly received: Received[] = [];
  inFlight = 0;
  maxInFlight = 0;
  readonly #server: Server;

  private constructor(handler: Handler, clock: Clock) {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const received: Received = {
          method: req.method ?? "GET",
          path: req.url ?? "/",
          headers: req.headers,
          body: text === "" ? undefined : JSON.parse(text),
          at: clock.now(),
        };
        this.received.push(received);
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        void Promise.resolve(handler(received)).then(async (reply) => {
          if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
          this.inFlight--;
          if (reply.reset) {
            req.socket.destroy();
            return;
          }
          const status = reply.status ?? 200;
          const headers: Record<string, string> = { ...reply.headers };
          let payload = "";
          if (reply.body !== undefined && status !== 204 && status !== 304) {
            payload = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
            headers["content-type"] ??=
              typeof reply.body === "string" ? "text/plain" : "application/json; charset=utf-8";
          }
          res.writeHead(status, headers);
          res.end(payload);
        });
      });
    });
  }

  static async start(handler: Handler, clock: Clock): Promise<FakeService> {
    const service = new FakeService(handler, clock);
    await new Promise<void>((resolve) => service.#server.listen(0, "127.0.0.1", resolve));
    return service;
  }

  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Requests other than the free GET /rate_limit. */
  counted(): Received[] {
    return this.received.filter((r) => r.path !== "/rate_limit");
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/**
 * A fixed-window rate limit read from the shared clock, as GitHub reports it: limit, remaining,
 * reset (epoch seconds), used and resource headers on every answer; over the limit → 403 with
 * remaining 0.
 */
export class WindowLimit {
  limitedAnswers = 0;
  #windowStart = 0;
  #used = 0;

  constructor(
    private readonly clock: Clock,
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.#windowStart = clock.now() - (clock.now() % windowMs);
  }

  /** Counts one request; `undefined` when it may proceed, or the 403 answer when it is over. */
  take(): { headers: Record<string, string>; refusal?: Reply } {
    this.#roll();
    const over = this.#used >= this.limit;
    if (!over) this.#used++;
    const headers = this.headers();
    if (!over) return { headers };
    this.limitedAnswers++;
    return {
      headers,
      refusal: {
        status: 403,
        headers,
        body: { message: "API rate limit exceeded for user ID 1.", documentation_url: "x" },
      },
    };
  }

  headers(): Record<string, string> {
    this.#roll();
    return {
      "x-ratelimit-limit": String(this.limit),
      "x-ratelimit-remaining": String(this.limit - this.#used),
      "x-ratelimit-reset": String(Math.ceil((this.#windowStart + this.windowMs) / 1000)),
      "x-ratelimit-used": String(this.#used),
      "x-ratelimit-resource": "core",
    };
  }

  #roll(): void {
    const now = this.clock.now();
    if (now >= this.#windowStart + this.windowMs) {
      this.#windowStart = now - (now % this.windowMs);
      this.#used = 0;
    }
  }
}
