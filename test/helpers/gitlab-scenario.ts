import { afterEach } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox, SandboxOptions } from "../../src/sandbox/index.js";
import { type CliResult, runInProcess } from "./cli.js";
import { configFile, sandbox } from "./sandbox.js";

/**
 * What the GitLab integration tests share: a sandbox a test starts with its own options (a tier, a
 * seed, GitLab.com's limits), the requests it was sent, and the CLI's plan and apply against it.
 */
export interface GitlabScenario {
  /** Starts the test's sandbox, stopped after the test; the record of requests starts empty. */
  start(options?: SandboxOptions): Promise<RunningSandbox>;
  readonly world: RunningSandbox;
  /** Every request since the sandbox started or the record was last forgotten. */
  readonly requests: readonly RecordedRequest[];
  forget(): void;
  /** The recorded requests that are not GETs. */
  writes(): RecordedRequest[];
  /** `plan --format json` of a configuration file, with more flags; its plan parsed. */
  plan(path: string, ...flags: string[]): Promise<PlanRun>;
  /** `plan` with these environment variables (a configuration's `${NAME}` values). */
  planWith(env: Record<string, string>, path: string, ...flags: string[]): Promise<PlanRun>;
  /** `apply --auto-approve` of a configuration file, with more flags. */
  apply(path: string, ...flags: string[]): Promise<CliResult>;
}

export interface PlanRun {
  code: number;
  plan: Plan;
  stderr: string;
}

export interface ScenarioOptions {
  /** Start the record again before each plan, or each apply, so a test reads only theirs. */
  forgetBefore?: ReadonlyArray<"plan" | "apply">;
}

/** Registers the scenario's sandbox stop after each test of the calling file. */
export function gitlabScenario({ forgetBefore = [] }: ScenarioOptions = {}): GitlabScenario {
  let world: RunningSandbox | undefined;
  let requests: RecordedRequest[] = [];
  afterEach(async () => {
    await world?.stop();
    world = undefined;
  });
  const running = () => {
    if (world === undefined) throw new Error("start the sandbox first");
    return world;
  };
  const planWith = async (env: Record<string, string>, path: string, ...flags: string[]) => {
    if (forgetBefore.includes("plan")) requests = [];
    const args = ["plan", "-c", path, "--sandbox-url", running().url, "--format", "json"];
    const result = await runInProcess([...args, ...flags], { env });
    return { code: result.code, plan: JSON.parse(result.stdout) as Plan, stderr: result.stderr };
  };
  return {
    start: async (options = {}) => {
      requests = [];
      world = await sandbox({ ...options, onRequest: (request) => requests.push(request) });
      return world;
    },
    get world() {
      return running();
    },
    get requests() {
      return requests;
    },
    forget: () => {
      requests = [];
    },
    writes: () => requests.filter((request) => request.method !== "GET"),
    plan: (path, ...flags) => planWith({}, path, ...flags),
    planWith: (env, path, ...flags) => planWith(env, path, ...flags),
    apply: async (path, ...flags) => {
      if (forgetBefore.includes("apply")) requests = [];
      return runInProcess([
        "apply",
        "-c",
        path,
        "--sandbox-url",
        running().url,
        "--auto-approve",
        ...flags,
      ]);
    },
  };
}

/** `text` indented by `by`, its outer blank lines dropped: a block nested in a YAML entry. */
export function indented(text: string, by: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => `${by}${line}`)
    .join("\n");
}

/**
 * A configuration file of one entry (`project: acme/api`, `group: acme`) holding `key`, whose
 * value is the block `yaml`.
 */
export function entryConfig(entry: string, key: string, yaml: string): string {
  const section = entry.startsWith("project") ? "projects" : "groups";
  return configFile(`version: 1
${section}:
  - ${entry}
    ${key}:
${indented(yaml, "      ")}
`);
}
