import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import YAML from "yaml";
import { type ActionEnvironment, runAction } from "../../src/action/run.js";
import { demoWorld, type RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox as startSandbox } from "../helpers/sandbox.js";

/** A token nothing else could print by chance, so finding it anywhere means it leaked. */
export const SECRET_TOKEN = "ghp_forgeplanMaskMe7f3c9a1e5b2d4";

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.stop()));
});

export function tempDir(prefix = "forgeplan-ci-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The demo world (plus `generate` repositories) whose admin, octo-admin, has `SECRET_TOKEN`. */
export async function world(generate = 0): Promise<RunningSandbox> {
  const seed = structuredClone(demoWorld);
  for (const user of seed.users ?? []) {
    if (user.login === "octo-admin") user.token = SECRET_TOKEN;
  }
  const file = join(tempDir("forgeplan-seed-"), "world.yaml");
  writeFileSync(file, YAML.stringify(seed));
  const sandbox = await startSandbox({ seed: file, generate });
  running.push(sandbox);
  return sandbox;
}

/** forgeplan.yaml in a fresh workspace: both targets at the sandbox, tokens from the usual variables. */
export function workspace(sandbox: RunningSandbox, body: string): string {
  const dir = tempDir("forgeplan-workspace-");
  const targets = [
    "version: 1",
    "targets:",
    `  github: { type: repository, base_url: "${sandbox.url}", token_env: GITHUB_TOKEN }`,
    `  gitlab: { type: planning, base_url: "${sandbox.url}", token_env: GITLAB_TOKEN }`,
    "",
  ].join("\n");
  writeFileSync(join(dir, "forgeplan.yaml"), `${targets}${body}`);
  return dir;
}

export interface ActionRun {
  code: number;
  log: string;
  outputs: Record<string, string>;
  summary: string;
  /** Every file the run wrote for the runner, for leak checks. */
  files: string[];
}

/** Parses `name<<DELIMITER` blocks (and plain `name=value` lines) of a $GITHUB_OUTPUT file. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const block = /^([\w-]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, index + 1);
      outputs[block[1]!] = lines.slice(index + 1, end).join("\n");
      index = end;
    } else if (line.includes("=")) {
      outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return outputs;
}

/**
 * Runs the Action in-process as the runner would for one step: inputs as INPUT_* variables, the
 * event payload in a file, fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, the workspace as cwd.
 */
export async function runActionStep(options: {
  sandbox: RunningSandbox;
  cwd: string;
  inputs: Record<string, string>;
  event?: { name: string; payload: unknown };
}): Promise<ActionRun> {
  const runner = tempDir("forgeplan-runner-");
  const output = join(runner, "output");
  const summary = join(runner, "summary");
  const eventPath = join(runner, "event.json");
  writeFileSync(output, "");
  writeFileSync(summary, "");
  writeFileSync(eventPath, JSON.stringify(options.event?.payload ?? {}));
  const env: Record<string, string> = {
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: options.event?.name ?? "push",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_REPOSITORY: "acme/api",
    GITHUB_API_URL: options.sandbox.url,
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_SHA: "0000000000000000000000000000000000000000",
    GITHUB_WORKSPACE: options.cwd,
    RUNNER_TEMP: runner,
  };
  for (const [name, value] of Object.entries(options.inputs)) {
    env[`INPUT_${name.toUpperCase()}`] = value;
  }
  let log = "";
  const context: ActionEnvironment = {
    env,
    cwd: options.cwd,
    write: (text) => {
      log += text;
    },
  };
  const code = await runAction(context);
  const outputs = parseOutputs(readFileSync(output, "utf8"));
  const files = [output, summary, ...(outputs["plan-json"] ? [outputs["plan-json"]] : [])];
  return { code, log, outputs, summary: readFileSync(summary, "utf8"), files };
}
