import { afterEach } from "vitest";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";

export { ADMIN, call, type RequestOptions, type Response } from "../helpers/sandbox.js";
export const READER = "sandbox-reader";
export const DEV = "sandbox-dev";

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
