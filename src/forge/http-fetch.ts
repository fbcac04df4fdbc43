import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate } from "node:zlib";

/** What @octokit/request reads of a fetch Response. */
interface OctokitResponse {
  status: number;
  statusText: string;
  url: string;
  headers: ResponseHeaders;
  body: null;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const MAX_REDIRECTS = 20;
const decoders: Record<string, (input: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

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
    body: null,
    text: async () => body.toString("utf8"),
    json: async () => JSON.parse(body.toString("utf8")) as unknown,
    arrayBuffer: async () =>
      body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
  };
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
 */
export function createHttpFetch(maxSockets: number): typeof fetch {
  const agents = {
    "http:": new HttpAgent({ keepAlive: true, maxSockets }),
    "https:": new HttpsAgent({ keepAlive: true, maxSockets }),
  };
  const once = (url: URL, exchange: Exchange) =>
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
      request.once("error", (error) => {
        settle();
        reject(signal?.aborted ? signal.reason : fetchFailed(error));
      });
      request.once("response", (message) => {
        const chunks: Buffer[] = [];
        message.on("data", (chunk: Buffer) => chunks.push(chunk));
        message.once("error", (error) => {
          settle();
          reject(signal?.aborted ? signal.reason : fetchFailed(error));
        });
        message.once("end", () => {
          settle();
          const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          const decode = decoders[String(message.headers["content-encoding"] ?? "").trim()];
          if (decode === undefined || raw.length === 0) return resolve({ message, body: raw });
          decode(raw).then((body) => resolve({ message, body }), reject);
        });
      });
      request.end(exchange.body);
    });

  const httpFetch = async (input: string | URL, init: RequestInit = {}) => {
    let url = new URL(input);
    const exchange: Exchange = {
      method: (init.method ?? "GET").toUpperCase(),
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: typeof init.body === "string" ? init.body : undefined,
      signal: init.signal ?? undefined,
    };
    for (let hop = 0; ; hop++) {
      const { message, body } = await once(url, exchange);
      const status = message.statusCode ?? 0;
      const location = message.headers.location;
      if (![301, 302, 303, 307, 308].includes(status) || location === undefined) {
        return responseOf(url, message, body);
      }
      if (init.redirect === "manual") return responseOf(url, message, body);
      if (init.redirect === "error" || hop >= MAX_REDIRECTS) {
        throw fetchFailed(new Error(`redirect ${status} to ${location} not followed`));
      }
      const next = new URL(location, url);
      if (status === 303 || ((status === 301 || status === 302) && exchange.method === "POST")) {
        exchange.method = exchange.method === "HEAD" ? "HEAD" : "GET";
        exchange.body = undefined;
        delete exchange.headers["content-type"];
      }
      if (next.origin !== url.origin) delete exchange.headers.authorization;
      url = next;
    }
  };
  return httpFetch as unknown as typeof fetch;
}
