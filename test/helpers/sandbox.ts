import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import {
  gitlabRequestViolations,
  type RecordedRequest,
  requestViolations,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from "../../src/sandbox/index.js";

export const ADMIN = "sandbox-admin";

export interface Response {
  status: number;
  headers: Headers;
  // Test code reads arbitrary JSON shapes; a loose type keeps assertions short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface RequestOptions {
  /** The demo world's admin by default; null sends no token. */
  token?: string | null;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** The one way tests call a sandbox: one request over real loopback HTTP. */
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
  const parsed: unknown = text === "" ? undefined : JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Every request the sandboxes of the current test were sent. */
const sent: RecordedRequest[] = [];

/**
 * What the service's published description refuses in a recorded request: GitHub's request schema
 * for a body (with the spec's exceptions, src/sandbox/github/request-rules.ts), GitLab's parameters
 * for a request under `/api/v4` (src/sandbox/gitlab/request-parameters.ts).
 */
export function recordedViolations(request: RecordedRequest): string[] {
  const { operation } = request;
  if (operation === undefined) return [];
  return operation.includes(" /api/v4/")
    ? gitlabRequestViolations(operation, request.path, request.body)
    : requestViolations(operation, request.body);
}

/**
 * No request of a test — forgeplan's or the test's own — may be one the service's published
 * description refuses for its operation (recordedViolations): the sandbox answers it 422 (GitHub)
 * or 400 (GitLab), and a test must not pass over one unnoticed. Registered after each test of the
 * file that first imports this module; a file that shares its modules with the files before it
 * (test/kinds/ runs with `isolate: false`) registers it itself.
 */
export function expectRequestsValid(): void {
  const refused = sent
    .splice(0)
    .flatMap((request) =>
      recordedViolations(request).map((problem) => `${request.method} ${request.path}: ${problem}`),
    );
  expect(refused, "requests the service's published description refuses").toEqual([]);
}

afterEach(expectRequestsValid);

/** Starts a sandbox for one test (the caller stops it); what it is sent is checked after the test. */
export function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    ...options,
    onRequest: (request) => {
      sent.push(request);
      options.onRequest?.(request);
    },
  });
}

/**
 * A sandbox for each test that records every write it is sent (`writes`, emptied and the sandbox
 * stopped after the test). Call it at the top of a test file.
 */
export function recordingSandbox(): {
  start(): Promise<RunningSandbox>;
  writes: RecordedRequest[];
} {
  const writes: RecordedRequest[] = [];
  let running: RunningSandbox | undefined;
  afterEach(async () => {
    writes.splice(0);
    await running?.stop();
    running = undefined;
  });
  return {
    writes,
    start: async () => {
      running = await sandbox({
        onRequest: (request) => {
          if (request.method !== "GET") writes.push(request);
        },
      });
      return running;
    },
  };
}

/** Writes a config file into a fresh temporary directory and returns its path. */
export function configFile(yaml: string, name = "forgeplan.yaml"): string {
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-"));
  const path = join(dir, name);
  writeFileSync(path, yaml);
  return path;
}

/** A glob config protecting `main` of every generated repository: one change per repository. */
export function generatedProtectionsConfig(): string {
  return configFile(`version: 1
repositories:
  - name: acme/repo-*
    owner_type: organization
    branch_protection:
      main:
        enforce_admins: true
        required_pull_request_reviews:
          required_approving_review_count: 1
`);
}
