import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from "node:zlib";
import { CLIENT_DEFAULTS } from "./defaults.js";

/** What @octokit/request reads of a fetch Response. */
interface OctokitResponse {
  status: number;
  statusText: string;
  url: string;
  headers: ResponseHeaders;
  /**
   * The raw bytes, where fetch has a stream: octokit hands `body` over as the answer's data when
   * told not to parse a success body, and the client reads it itself (forge/answer.ts).
   */
  body: Buffer;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * `fetch`, and for the client's concurrency slots (./slots.ts): `answered` is called once an
 * answer's last byte is read (in the next tick, when Node has its socket back), before the body is
 * decoded or handed on.
 */
export type HttpFetch = ((
  input: string | URL,
  init?: RequestInit,
  answered?: () => void,
) => Promise<Response>) &
  typeof fetch;

const MAX_REDIRECTS = 20;
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
type Decoder = (input: Buffer, options: ZlibOptions) => Promise<Buffer>;
const decoders: Record<string, Decoder> = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress) as Decoder,
};

/**
 * An exchange forgeplan stopped on purpose: an answer larger than it reads, a redirect it does not
 * follow. Unlike a network failure it would end the same way again, so it is never retried.
 */
export class ExchangeRefused extends Error {
  override name = "ExchangeRefused";
  /** The status of the answer refused (the redirect's, the oversized answer's). */
  readonly status: number;
  /** Whether the detail describes the answer's body ("answered 200 with …"). */
  readonly unusableAnswer: boolean;

  constructor(status: number, detail: string, unusableAnswer: boolean) {
    super(detail);
    this.status = status;
    this.unusableAnswer = unusableAnswer;
  }
}

function tooLarge(status: number, maxBytes: number): ExchangeRefused {
  return new ExchangeRefused(
    status,
    `a body larger than ${formatBytes(maxBytes)}, the most forgeplan reads of one answer`,
    true,
  );
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/** Response headers as fetch exposes them: lower-case names, iterable as [name, value] pairs. */
class ResponseHeaders {
  readonly #values: Map<string, string>;
  constructor(raw: IncomingMessage["headers"]) {
    this.#values = new Map();
    for (const [name, value] of Object.entries(raw)) {
      if (value !== undefined)
        this.#values.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
  }
  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#values[Symbol.iterator]();
  }
}

function responseOf(url: URL, message: IncomingMessage, body: Buffer): OctokitResponse {
  return {
    status: message.statusCode ?? 0,
    statusText: message.statusMessage ?? "",
    url: url.href,
    headers: new ResponseHeaders(message.headers),
    body,
    text: async () => body.toString("utf8"),
    json: async () => JSON.parse(body.toString("utf8")) as unknown,
    arrayBuffer: async () =>
      body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
  };
}

/**
 * An answer whose body stopped coming: no bytes for the idle time. A stalled service is not a slow
 * one, so the attempt ends there rather than at the total timeout, and is retried like a broken
 * connection (it may have been carried out).
 */
export class BodyStalled extends Error {
  override name = "BodyStalled";

  constructor(idleMs: number) {
    super(`the answer stalled: no bytes for ${idleMs / 1000} s`);
  }
}

/** Whether an answer is a redirect this fetch may follow. */
function redirects(status: number, location: string | undefined): location is string {
  return [301, 302, 303, 307, 308].includes(status) && location !== undefined;
}

/** Errors as fetch reports them, so the retry policy classifies both the same way. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError("fetch failed", { cause });
}

interface Exchange {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
}

/**
 * A `fetch` for @octokit/request over node:http(s) with keep-alive agents. Node's built-in fetch
 * (undici) spends about 0.7 ms of CPU per request on the WHATWG Request/Response/stream machinery,
 * which at thousands of reads is most of a plan's CPU. This covers what octokit uses of fetch: one
 * request with a string body, redirects followed like fetch's "follow" (the Authorization header is
 * dropped when a redirect leaves the origin), compressed bodies decoded, and aborts by signal.
 *
 * Three things it does that fetch does not. A body (after decoding) longer than `maxBytes` is cut off
 * while it streams in, so an endless or enormous answer is never held. A body that stops coming for
 * `idleMs` fails the attempt then, not only when the caller's total timeout ends. And a redirect of a write
 * (POST, PUT, PATCH, DELETE) is followed only on the same origin: GitHub redirects a write to a
 * renamed repository on its own origin ("Best practices for using the REST API": follow redirects),
 * and following one elsewhere would send the body, webhook secrets included, to another host.
 */
export function createHttpFetch(
  maxSockets: number,
  maxBytes: number = CLIENT_DEFAULTS.maxResponseBytes,
  idleMs: number = CLIENT_DEFAULTS.idleTimeoutMs,
): HttpFetch {
  const agents = {
    "http:": new HttpAgent({ keepAlive: true, maxSockets }),
    "https:": new HttpsAgent({ keepAlive: true, maxSockets }),
  };
  const once = (url: URL, exchange: Exchange, answered?: () => void) =>
    new Promise<{ message: IncomingMessage; body: Buffer }>((resolve, reject) => {
      const { signal } = exchange;
      if (signal?.aborted) return reject(signal.reason);
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const request = send(url, {
        method: exchange.method,
        headers: {
          "accept-encoding": "gzip, deflate, br",
          ...exchange.headers,
          ...(exchange.body !== undefined
            ? { "content-length": String(Buffer.byteLength(exchange.body)) }
            : {}),
        },
        agent: agents[url.protocol as keyof typeof agents],
      });
      const onAbort = () => request.destroy(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => signal?.removeEventListener("abort", onAbort);
      const fail = (error: unknown) => {
        settle();
        reject(signal?.aborted ? signal.reason : error);
      };
      request.once("error", (error) => fail(fetchFailed(error)));
      request.once("response", (message) => {
        const status = message.statusCode ?? 0;
        let idle: NodeJS.Timeout | undefined;
        const stop = (error: Error) => {
          clearTimeout(idle);
          settle();
          // Destroying the request ends the socket: the rest of the body is never read.
          request.destroy();
          reject(error);
        };
        const refuse = () => stop(tooLarge(status, maxBytes));
        if (Number(message.headers["content-length"] ?? 0) > maxBytes) return refuse();
        const waitForBytes = () => {
          clearTimeout(idle);
          idle = setTimeout(() => stop(fetchFailed(new BodyStalled(idleMs))), idleMs);
        };
        waitForBytes();
        const chunks: Buffer[] = [];
        let received = 0;
        message.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) return refuse();
          chunks.push(chunk);
          waitForBytes();
        });
        message.once("error", (error) => {
          clearTimeout(idle);
          fail(fetchFailed(error));
        });
        message.once("end", () => {
          clearTimeout(idle);
          settle();
          // A redirect's end is not the answer's: the slot is kept while it is followed. Node gives
          // the socket back to its agent in a tick it queued before this handler ran ("after
          // user-added end handlers"): a request sent after it finds the socket free, where one sent
          // from here waited in the agent's queue, about 50 µs more of CPU (an AsyncResource each).
          if (answered !== undefined && !redirects(status, message.headers.location)) {
            process.nextTick(answered);
          }
          const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          const decode = decoders[String(message.headers["content-encoding"] ?? "").trim()];
          if (decode === undefined || raw.length === 0) return resolve({ message, body: raw });
          decode(raw, { maxOutputLength: maxBytes }).then(
            (body) => resolve({ message, body }),
            (error: unknown) =>
              reject(
                (error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE"
                  ? tooLarge(status, maxBytes)
                  : error,
              ),
          );
        });
      });
      request.end(exchange.body);
    });

  const httpFetch = async (input: string | URL, init: RequestInit = {}, answered?: () => void) => {
    let url = new URL(input);
    const exchange: Exchange = {
      method: (init.method ?? "GET").toUpperCase(),
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: typeof init.body === "string" ? init.body : undefined,
      signal: init.signal ?? undefined,
    };
    const write = MUTATING.has(exchange.method);
    for (let hop = 0; ; hop++) {
      const { message, body } = await once(url, exchange, answered);
      const status = message.statusCode ?? 0;
      const location = message.headers.location;
      if (!redirects(status, location)) {
        return responseOf(url, message, body);
      }
      if (init.redirect === "manual") return responseOf(url, message, body);
      if (init.redirect === "error") {
        throw new ExchangeRefused(status, "redirect not followed", false);
      }
      if (hop >= MAX_REDIRECTS) {
        throw new ExchangeRefused(status, `more than ${MAX_REDIRECTS} redirects in a row`, false);
      }
      const next = new URL(location, url);
      if (write && next.origin !== url.origin) {
        throw new ExchangeRefused(
          status,
          `redirect from ${url.origin} to ${next.origin} not followed: a write is followed only on its own origin, so its body never goes to another host`,
          false,
        );
      }
      if (status === 303 || ((status === 301 || status === 302) && exchange.method === "POST")) {
        exchange.method = exchange.method === "HEAD" ? "HEAD" : "GET";
        exchange.body = undefined;
        delete exchange.headers["content-type"];
      }
      if (next.origin !== url.origin) delete exchange.headers.authorization;
      url = next;
    }
  };
  return httpFetch as unknown as HttpFetch;
}
