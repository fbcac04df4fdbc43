import { STATUS_CODES } from "node:http";
import type { WaitReason } from "./types.js";

/**
 * A request the service refused or that could not be completed. `message` is one line:
 * "PUT /repos/acme/api/branches/main/protection → 422 Validation Failed: …", or for a success
 * status whose answer cannot be used, "GET /repos/acme/api/hooks answered 200 with text/html, not
 * JSON". It never carries headers, bodies sent or credentials.
 */
export class ForgeError extends Error {
  override name = "ForgeError";
  /** The HTTP status, or 0 when no response arrived (connection failure, timeout, refused link). */
  readonly status: number;
  readonly method: string;
  /** The request path and query relative to the base URL, with credential-like query values redacted. */
  readonly path: string;
  /** The service's own message (or what went wrong when there was no response). */
  readonly detail: string;
  /** What forgeplan adds to the detail: "gave up after 6 attempts", why a wait was refused. */
  readonly note: string | undefined;
  /** Attempts sent before giving up (1 when the first answer was final). */
  readonly attempts: number;
  /**
   * A write whose outcome is unknown: it was sent, but its answer was lost (a timeout or a broken
   * connection after sending, a gateway's 502/504, an answer that cannot be read), so the service
   * may have carried it out. Never set for reads.
   */
  readonly mayHaveBeenApplied: boolean;
  /** The detail and note as one line, without method and path: "Server Error (gave up after 6 attempts)". */
  readonly reason: string;

  constructor(init: {
    method: string;
    path: string;
    status: number;
    detail: string;
    note?: string;
    attempts?: number;
    mayHaveBeenApplied?: boolean;
    /**
     * The status was a success but the answer cannot be used; the detail says what it came with
     * ("text/html, not JSON") and the message reads "GET … answered 200 with text/html, not JSON".
     */
    unusableAnswer?: boolean;
  }) {
    // GitLab's messages repeat the status ("404 Not found"); say it once.
    const said = init.detail.startsWith(`${init.status} `)
      ? init.detail.slice(String(init.status).length + 1)
      : init.detail;
    const noted = init.note ? ` (${init.note})` : "";
    const reason = init.unusableAnswer
      ? `answered ${init.status} with ${said}${noted}`
      : `${said}${noted}`;
    const outcome = init.status === 0 ? said : `${init.status} ${said}`.trimEnd();
    super(
      init.unusableAnswer
        ? `${init.method} ${init.path} ${reason}`
        : `${init.method} ${init.path} → ${outcome}${noted}`,
    );
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.detail = init.detail;
    this.note = init.note;
    this.attempts = init.attempts ?? 1;
    this.mayHaveBeenApplied = init.mayHaveBeenApplied ?? false;
    this.reason = reason;
  }
}

/**
 * Where a wait that would be too long came from: the service's reported reset; a throttling answer
 * (a secondary limit, a 429…) with its Retry-After, or without one and so forgeplan's own back-off;
 * or waits that one after another add up to more than the maximum.
 */
export type WaitBasis =
  | { kind: "reset" }
  | {
      kind: "answer";
      /** "GET /repos/acme/api/hooks" */
      request: string;
      /** Its endpoint (route template), which a secondary limit counts points in. */
      endpoint: string;
      status: number;
      reason: WaitReason;
      source: "retry-after" | "backoff";
      /** Throttling answers to this request so far, this one included. */
      answers: number;
    }
  | { kind: "total"; waitedMs: number }
  /** The endpoint's secondary-limit points a minute (the category is then the endpoint). */
  | { kind: "points" }
  /** A GitLab.com limit's requests per window (the category is then the endpoint group). */
  | { kind: "endpoint-limit" }
  /** GitHub's CPU-time limit, as forgeplan estimates it by response time. */
  | { kind: "cpu-time" }
  /** GitHub's limit on content-creating requests a minute and an hour. */
  | { kind: "content-creation" };

/**
 * The run was cancelled before any attempt of this request was sent: it waited for its turn to
 * write, its spacing, the rate budget or a credential. Unlike a request caught on its way, the
 * service never saw it, and a report can say so.
 */
export class StoppedBeforeSending extends Error {
  override name = "StoppedBeforeSending";

  constructor(
    readonly method: string,
    readonly path: string,
    cause: unknown,
  ) {
    super(
      `${method} ${path} was not sent: ${cause instanceof Error ? cause.message : "cancelled"}`,
      {
        cause,
      },
    );
  }
}

/** Waiting for the rate limit would take longer than the caller allows (`maxWaitMs`). */
export class RateLimitWaitExceeded extends Error {
  override name = "RateLimitWaitExceeded";
  readonly category: string;
  /** When the wait would end, in milliseconds since the epoch. */
  readonly resetAt: number;
  readonly basis: WaitBasis;

  constructor(
    category: string,
    resetAt: number,
    waitMs: number,
    maxWaitMs: number,
    basis: WaitBasis = { kind: "reset" },
  ) {
    const longer = basis.kind === "total" ? "more in total than" : "longer than";
    super(
      `${waitDescription(category, resetAt, waitMs, basis)}, ${longer} the maximum wait of ${formatDuration(maxWaitMs)}`,
    );
    this.category = category;
    this.resetAt = resetAt;
    this.basis = basis;
  }
}

function waitDescription(
  category: string,
  until: number,
  waitMs: number,
  basis: WaitBasis,
): string {
  const wait = formatDuration(waitMs);
  const at = new Date(until).toISOString();
  switch (basis.kind) {
    case "reset":
      return `rate limit "${category}" exhausted: it resets at ${at}, ${wait} from now`;
    case "points":
      return `secondary rate limit on ${category}: its points a minute are spent until ${at}, ${wait} from now`;
    case "endpoint-limit":
      return `GitLab.com's limit on ${category}: its requests of the window are spent until ${at}, ${wait} from now`;
    case "cpu-time":
      return `secondary rate limit on CPU time: the response time of a minute's requests${category === "graphql" ? " (GraphQL)" : ""} is spent until ${at}, ${wait} from now`;
    case "content-creation":
      return `secondary rate limit on content creation: the content-creating requests of the last minute or hour are spent until ${at}, ${wait} from now`;
    case "answer": {
      const what =
        basis.reason === "secondary-limit"
          ? `secondary rate limit on ${basis.endpoint}: ${basis.request} answered ${basis.status}`
          : basis.reason === "rate-limit-reset"
            ? `rate limit "${category}" exhausted on ${basis.request} (${basis.status})`
            : `${basis.request} throttled (${basis.status})`;
      const answers = `${basis.answers} such answer${basis.answers === 1 ? "" : "s"}`;
      return basis.source === "retry-after"
        ? `${what}: the service asks to wait ${wait} (Retry-After), until ${at}`
        : `${what}: the service said not how long to wait, and forgeplan's own back-off after ${answers} is ${wait}, until ${at}`;
    }
    case "total":
      return (
        `rate limit "${category}": a request has already waited ${formatDuration(basis.waitedMs)} ` +
        `and would wait ${wait} more, until ${at}`
      );
  }
}

function formatDuration(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

const MAX_DETAIL = 300;

const PERMISSION = /^[a-z_]+=(read|write|admin)$/;

/**
 * What a refused request needs, from GitHub's `X-Accepted-GitHub-Permissions` (sets separated by
 * ";", a set's permissions by ","): "the token needs repository_hooks=write", or with several sets
 * "… needs issues=write or pull_requests=write". A value not of that form is left out: it comes
 * from the service, and is shown only when it is what the header means.
 */
export function permissionsNote(header: string | undefined): string | undefined {
  if (header === undefined || header.length > MAX_DETAIL) return undefined;
  const sets = header
    .split(";")
    .filter((set) => set.trim() !== "")
    .map((set) => set.split(",").map((permission) => permission.trim()));
  if (sets.length === 0 || !sets.flat().every((permission) => PERMISSION.test(permission))) {
    return undefined;
  }
  return `the token needs ${sets.map((set) => set.join(" and ")).join(" or ")}`;
}

/**
 * The service's message as one line: GitHub's `message` plus its `errors` (strings in Validation
 * Error Simple, objects in the full form), or GitLab's `message` (a string or a field → messages map)
 * and `error`. Falls back to the standard reason phrase when the body says nothing useful.
 */
export function serviceMessage(status: number, data: unknown): string {
  const text = describeBody(data);
  const line = text.replace(/\s+/g, " ").trim();
  if (line === "") return STATUS_CODES[status] ?? "";
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 1)}…` : line;
}

function describeBody(data: unknown): string {
  if (typeof data === "string") return /^\s*</.test(data) ? "" : data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return "";
  const body = data as Record<string, unknown>;
  const message = describeMessage(body.message);
  const errors = Array.isArray(body.errors)
    ? body.errors.map(describeErrorItem).filter((item) => item !== "")
    : [];
  const error = [body.error, body.error_description]
    .filter((part): part is string => typeof part === "string" && part !== "")
    .join(": ");
  const head = message !== "" ? message : error;
  if (errors.length === 0) return head;
  return head === "" ? errors.join("; ") : `${head}: ${errors.join("; ")}`;
}

function describeMessage(message: unknown): string {
  if (typeof message === "string") return message;
  if (Array.isArray(message)) return message.filter((m) => typeof m === "string").join("; ");
  if (typeof message === "object" && message !== null) {
    // GitLab validation: {"name": ["can't be blank"], "base": ["…"]}
    return Object.entries(message)
      .map(([field, value]) =>
        [field, ...(Array.isArray(value) ? value.map(String) : [String(value)])].join(" "),
      )
      .join("; ");
  }
  return "";
}

function describeErrorItem(item: unknown): string {
  if (typeof item === "string") return item;
  if (typeof item !== "object" || item === null) return "";
  const error = item as Record<string, unknown>;
  if (typeof error.message === "string") return error.message;
  return [error.resource, error.field, error.code]
    .filter((part) => typeof part === "string")
    .join(" ");
}
