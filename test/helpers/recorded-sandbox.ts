import { afterEach, beforeEach, expect } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "./cli.js";
import { sandbox } from "./sandbox.js";

/** A demo-world sandbox for each test, the writes it was sent, and the CLI pointed at it. */
export interface RecordedSandbox {
  readonly world: RunningSandbox;
  /** Every write of this test, in order; `forget()` starts the record again. */
  readonly writes: RecordedRequest[];
  forget(): void;
  /** The writes as `METHOD path`. */
  sent(): string[];
  /** `plan --format json` of a configuration file, through `url` (a proxy) or to the sandbox. */
  planOf(path: string, url?: string): Promise<{ code: number; plan: Plan }>;
  /** `apply --auto-approve --allow-delete`, which must succeed and verify; its stdout. */
  applied(path: string, ...flags: string[]): Promise<string>;
}

/** Registers the sandbox's start and stop around each test of the calling file. */
export function recordedSandbox(): RecordedSandbox {
  let world: RunningSandbox | undefined;
  let writes: RecordedRequest[] = [];
  beforeEach(async () => {
    writes = [];
    world = await sandbox({
      onRequest: (request) => {
        if (request.method !== "GET") writes.push(request);
      },
    });
  });
  afterEach(async () => {
    await world?.stop();
  });
  const running = () => {
    if (world === undefined) throw new Error("the sandbox runs only within a test");
    return world;
  };
  return {
    get world() {
      return running();
    },
    get writes() {
      return writes;
    },
    forget: () => {
      writes = [];
    },
    sent: () => writes.map((write) => `${write.method} ${write.path}`),
    planOf: async (path, url = running().url) => {
      const result = await runInProcess([
        "plan",
        "-c",
        path,
        "--sandbox-url",
        url,
        "--format",
        "json",
      ]);
      expect(result.stderr).toBe("");
      return { code: result.code, plan: JSON.parse(result.stdout) as Plan };
    },
    applied: async (path, ...flags) => {
      const argv = ["apply", "-c", path, "--sandbox-url", running().url, ...flags];
      const result = await runInProcess([...argv, "--auto-approve", "--allow-delete"]);
      expect([result.code, result.stderr]).toEqual([0, ""]);
      expect(result.stdout).toContain("Verified: re-plan shows no changes.");
      return result.stdout;
    },
  };
}
