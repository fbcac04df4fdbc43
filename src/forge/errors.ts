import { STATUS_CODES } from "node:http";

/**
 * A request the service refused or that could not be completed. `message` is one line:
 * "PUT /repos/acme/api/branches/main/protection → 422 Validation Failed: …". It never carries
 * headers, bodies sent or credentials.
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

  constructor(init: {
    method: string;
    path: string;
    status: number;
    detail: string;
    note?: string;
  }) {
    // GitLab's messages repeat the status ("404 Not found"); say it once.
    const said = init.detail.startsWith(`${init.status} `)
      ? init.detail.slice(String(init.status).length + 1)
      : init.detail;
    const outcome = init.status === 0 ? said : `${init.status} ${said}`.trimEnd();
    super(`${init.method} ${init.path} → ${outcome}${init.note ? ` (${init.note})` : ""}`);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.detail = init.detail;
  }
}

/** Waiting for the rate limit to reset would take longer than the caller allows (`maxWaitMs`). */
export class RateLimitWaitExceeded extends Error {
  override name = "RateLimitWaitExceeded";
  readonly category: string;
  /** When the wait would end, in milliseconds since the epoch. */
  readonly resetAt: number;

  constructor(category: string, resetAt: number, waitMs: number, maxWaitMs: number) {
    super(
      `rate limit "${category}" exhausted: it resets at ${new Date(resetAt).toISOString()}, ` +
        `${formatDuration(waitMs)} from now, longer than the maximum wait of ${formatDuration(maxWaitMs)}`,
    );
    this.category = category;
    this.resetAt = resetAt;
  }
}

function formatDuration(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

const MAX_DETAIL = 300;

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
