import { readAnswer } from "./answer.js";
import { ExchangeRefused } from "./http-fetch.js";
import { type TransportFailure, transportFailure } from "./retry-policy.js";

/** What one attempt ended with. */
export type Outcome =
  | {
      kind: "response";
      status: number;
      headers: Record<string, string>;
      data: unknown;
      /** A success's body bytes as received, for the conditional cache. */
      raw?: Buffer;
    }
  | { kind: "transport"; failure: TransportFailure }
  /** An answer forgeplan cannot use or follow: never retried, it would end the same way again. */
  | { kind: "refused"; status: number; detail: string; unusableAnswer: boolean };

/**
 * A gateway's 502 or 504 says the service's own answer was lost on the way: a write may have been
 * carried out behind it.
 */
const ANSWER_LOST = new Set([502, 504]);

/** The outcome of an answer octokit returned: a usable success, or a refusal of one that is not. */
export function answered(
  method: string,
  status: number,
  rawHeaders: unknown,
  body: unknown,
): Outcome {
  const headers = plainHeaders(rawHeaders);
  const answer = readAnswer(
    method,
    status,
    headers["content-type"],
    body as Uint8Array | string | undefined,
  );
  if (!answer.usable) {
    return { kind: "refused", status, detail: answer.problem, unusableAnswer: true };
  }
  const raw =
    body instanceof Uint8Array
      ? Buffer.from(body.buffer, body.byteOffset, body.byteLength)
      : undefined;
  return { kind: "response", status, headers, data: answer.data, ...(raw ? { raw } : {}) };
}

/** An attempt the client's own timer ended: the request may have reached the service. */
export function timedOut(timeoutMs: number): Outcome {
  return {
    kind: "transport",
    failure: {
      description: `timed out after ${timeoutMs} ms`,
      transient: true,
      refused: false,
      neverSent: false,
    },
  };
}

/** Whether a failed attempt was sent and then lost its answer, so a write may have landed. */
export function lostAnswer(outcome: Outcome): boolean {
  switch (outcome.kind) {
    case "transport":
      return !outcome.failure.neverSent;
    case "response":
      return ANSWER_LOST.has(outcome.status);
    case "refused":
      // A redirect was an answer that the write was not carried out there; an answer that cannot
      // be read says nothing either way.
      return outcome.unusableAnswer;
  }
}

/** What octokit threw: an error status with its answer, a refusal, or a network failure. */
export function fromThrown(error: unknown): Outcome {
  const http = error as { status?: unknown; response?: { headers?: unknown; data?: unknown } };
  if (typeof http.status === "number" && http.response !== undefined) {
    return {
      kind: "response",
      status: http.status,
      headers: plainHeaders(http.response.headers),
      data: http.response.data === "" ? undefined : http.response.data,
    };
  }
  // octokit wraps what fetch throws in a RequestError whose cause is fetch's own error.
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof ExchangeRefused) {
      return {
        kind: "refused",
        status: e.status,
        detail: e.message,
        unusableAnswer: e.unusableAnswer,
      };
    }
  }
  return { kind: "transport", failure: transportFailure(error) };
}

function plainHeaders(headers: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (typeof headers !== "object" || headers === null) return result;
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && value !== null) result[name.toLowerCase()] = String(value);
  }
  return result;
}
