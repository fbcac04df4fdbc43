import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { configDirectory, hasRevision } from "../cli/revision.js";
import { pullRequestOf } from "./github-job.js";
import type { ActionInputs } from "./inputs.js";

/** The forgeplan command lines a step of the Action runs, from its inputs and the event. */

type Env = Readonly<Record<string, string | undefined>>;

/** Files named in `merge`, directories expanded to the plans inside them, in name order. */
function mergeFiles(paths: readonly string[], cwd: string): string[] {
  return paths.flatMap((path) => {
    const full = resolve(cwd, path);
    if (!existsSync(full) || !statSync(full).isDirectory()) return [path];
    return readdirSync(full)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => join(path, name));
  });
}

export function planPath(env: Env, inputs: ActionInputs): string {
  const dir = join(env.RUNNER_TEMP ?? tmpdir(), "forgeplan");
  mkdirSync(dir, { recursive: true });
  const name = inputs.shard ? `plan-shard-${inputs.shard.index}-of-${inputs.shard.count}` : "plan";
  return join(dir, `${name}.json`);
}

export function connectionArgs(inputs: ActionInputs): string[] {
  return [
    ...inputs.config.flatMap((file) => ["-c", file]),
    ...(inputs.concurrency !== undefined ? ["--concurrency", inputs.concurrency] : []),
    ...(inputs.writeInterval !== undefined ? ["--write-interval", inputs.writeInterval] : []),
    ...(inputs.reads !== undefined ? ["--reads", inputs.reads] : []),
  ];
}

/**
 * The revision a plan shows the changes from: the input's, or on a pull_request event the pull
 * request's base commit, when the checkout has it (actions/checkout fetches one commit unless told
 * `fetch-depth: 0`); without it the plan is of the whole configuration, with a warning.
 */
export function changedFrom(
  env: Env,
  inputs: ActionInputs,
  cwd: string,
  warn: (message: string) => void,
): string | undefined {
  if (inputs.changedFrom !== undefined) {
    return inputs.changedFrom === "none" ? undefined : inputs.changedFrom;
  }
  const plansWhole = inputs.command === "plan" && !inputs.shard && inputs.merge.length === 0;
  const base = pullRequestOf(env)?.baseSha;
  if (!plansWhole || env.GITHUB_EVENT_NAME !== "pull_request" || base === undefined) {
    return undefined;
  }
  if (hasRevision(configDirectory(inputs.config, cwd), base)) return base;
  warn(
    `the pull request's base commit ${base} is not in the checkout (actions/checkout with fetch-depth: 0 fetches it): planning the whole configuration`,
  );
  return undefined;
}

/** The forgeplan command lines of a plan or drift run. */
export function planArgs(
  inputs: ActionInputs,
  out: string,
  cwd: string,
  revision: string | undefined,
): string[] {
  // The log has the whole plan: the comment and the summary are cut to their own limits.
  const common = [
    "--format",
    inputs.format,
    ...(inputs.format === "markdown" ? ["--max-length", "0"] : []),
    "--out",
    out,
  ];
  if (inputs.merge.length > 0) {
    return ["plan", "--merge", ...mergeFiles(inputs.merge, cwd), ...common];
  }
  const shard = inputs.shard ? ["--shard", `${inputs.shard.index}/${inputs.shard.count}`] : [];
  if (inputs.command === "drift") {
    return [
      "drift",
      ...connectionArgs(inputs),
      ...shard,
      ...common,
      ...(inputs.cache !== undefined ? ["--cache", inputs.cache] : []),
      ...(inputs.reportIssue !== undefined ? ["--report-issue", inputs.reportIssue] : []),
    ];
  }
  const scope = revision === undefined ? [] : ["--changed-from", revision];
  // A saved plan records what it sends again, and apply re-plans it the same way.
  const rotation = [
    ...(inputs.rotateSecrets ? ["--rotate-secrets"] : []),
    ...inputs.rotateSecretNames.flatMap((name) => ["--rotate-secret", name]),
  ];
  return ["plan", ...connectionArgs(inputs), ...shard, ...scope, ...rotation, ...common];
}

export function allowArgs(inputs: ActionInputs): string[] {
  return [
    ...(inputs.allowDelete ? ["--allow-delete"] : []),
    ...(inputs.allowVisibility ? ["--allow-visibility"] : []),
    ...(inputs.allowCreate ? ["--allow-create"] : []),
    ...(inputs.allowProtectionGap ? ["--allow-protection-gap"] : []),
    ...(inputs.allowPlanErrors ? ["--allow-plan-errors"] : []),
  ];
}
