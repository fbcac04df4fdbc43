export interface RetryPolicy {
  /** Retries after the first attempt. */
  max: number;
  baseMs: number;
  capMs: number;
}

/** Full-jitter exponential backoff: uniform in [0, min(cap, base × 2^retry)). `retry` counts from 0. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  return Math.floor(random() * Math.min(policy.capMs, policy.baseMs * 2 ** retry));
}

/** A failure before any response arrived. */
export interface TransportFailure {
  /** For the user: "timed out after 30000 ms", "connection reset (ECONNRESET)". */
  description: string;
  /** Worth another attempt: the connection broke or timed out, the service may be fine. */
  transient: boolean;
  /** The connection was refused, so the request certainly never reached the service. */
  refused: boolean;
  /**
   * No connection was made (refused, no such host, no route), so the request was never sent. Any
   * other failure may have come after the service received it: a write may have been carried out.
   */
  neverSent: boolean;
}

const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/** Failures that leave no doubt the request never left this machine. */
const NEVER_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
]);

const TRANSIENT_MESSAGES =
  /socket hang up|other side closed|fetch failed|network error|terminated/i;

/** Classifies what fetch threw (undici nests the cause: TypeError("fetch failed") → SocketError). */
export function transportFailure(error: unknown): TransportFailure {
  const chain: unknown[] = [];
  for (let e: unknown = error; e instanceof Error && chain.length < 8; e = e.cause) chain.push(e);
  const code = chain
    .map((e) => (e as { code?: unknown }).code)
    .find((c): c is string => typeof c === "string");
  const innermost = chain[chain.length - 1];
  const message = innermost instanceof Error ? innermost.message : String(error);
  const refused = code === "ECONNREFUSED";
  // fetch says "fetch failed" for everything; a code, when there is one, says what really happened.
  const transient =
    code !== undefined
      ? TRANSIENT_CODES.has(code)
      : chain.some((e) => e instanceof Error && TRANSIENT_MESSAGES.test(e.message));
  const what = refused
    ? "connection refused"
    : code === "ECONNRESET"
      ? "connection reset"
      : message;
  return {
    description: code !== undefined && !what.includes(code) ? `${what} (${code})` : what,
    transient,
    refused,
    neverSent: code !== undefined && NEVER_SENT_CODES.has(code),
  };
}

/**
 * Which failures a method may repeat. GET, PUT and PATCH of whole values and DELETE are idempotent:
 * repeating them after a 5xx, a timeout or a broken connection cannot do anything twice. POST creates,
 * so it is repeated only when the connection was refused — the one failure that proves the service
 * never saw the request; after anything else a retry could create a duplicate.
 */
export function mayRetry(
  method: string,
  failure: { status: number } | { transport: TransportFailure },
): boolean {
  if (method === "POST") return "transport" in failure && failure.transport.refused;
  if ("transport" in failure) return failure.transport.transient;
  return failure.status >= 500;
}
