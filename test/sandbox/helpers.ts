import { afterEach } from "vitest";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";

export const ADMIN = "sandbox-admin";
export const READER = "sandbox-reader";
export const DEV = "sandbox-dev";

export interface Response {
  status: number;
  headers: Headers;
  // Test code reads arbitrary JSON shapes; a loose type keeps assertions short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** One request over real loopback HTTP; the admin token unless `token` says otherwise (null: none). */
export async function call(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? ADMIN : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  if (text !== "") parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed, text };
}

const running: RunningSandbox[] = [];

/** Starts a sandbox for the current test; it is stopped after the test. */
export async function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const started = await startSandbox(options);
  running.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

/** A PUT body that satisfies every required key, to vary one field at a time. */
export function protectionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    required_status_checks: null,
    enforce_admins: null,
    required_pull_request_reviews: null,
    restrictions: null,
    ...overrides,
  };
}
