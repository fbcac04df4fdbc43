import { DEFAULT_CONFIG } from "../config/index.js";
import type { ConfigError } from "../config/errors.js";
import type { DesiredState } from "../config/model.js";
import { hasChanges, type Plan } from "../core/plan.js";
import { planFileText } from "../core/plan-file.js";
import { Redactor } from "../core/redact.js";
import { loadDesiredState } from "../engine/desired.js";
import { readPlan } from "../engine/merge.js";
import { planPart } from "../engine/plan-part.js";
import type { Shard } from "../engine/shard.js";
import { TargetFilter } from "../engine/targets.js";
import { type Connection, connect, type ConnectOptions } from "./connect.js";

/** Where the configuration is read from and what it interpolates. */
export interface LoadingOptions {
  /** The directory configuration paths are relative to (default: the process's). */
  cwd?: string;
  /** The variables `${NAME}` and the targets' `token_env` read (default: the process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The run's redactor: it learns every sensitive value of the configuration, and the plans and
   * errors returned pass through it. One is made when none is given.
   */
  redactor?: Redactor;
}

export interface PlanOptions extends ConnectOptions, LoadingOptions {
  /** Plan only shard `index` of `count` (1-based), at 1/count of the rate budget. */
  shard?: Shard;
  /** Send every managed write-only value again: webhook secrets, authorization headers, secrets. */
  rotateSecrets?: boolean;
  /**
   * Send again the secrets of these names (as `--rotate-secret NAME`): an Actions or Dependabot
   * secret's name, or the environment variable a value is read from; case-insensitive.
   */
  rotateSecretNames?: readonly string[];
  /**
   * Plan only what these addresses match, as `--target` does (globs allowed, such as
   * `github/acme/api/*`); only what they reach is read.
   */
  targets?: readonly string[];
  /**
   * Raise the removal limit for this plan, as `--removal-limit` (`share`, a percentage) and
   * `--delete-limit` (`deletes`) do; the plan records it, and `apply` re-plans with it.
   */
  removalLimit?: { share?: number; deletes?: number };
}

/**
 * A plan, or the configuration's errors. The plan is what `forgeplan plan --out` saves: sensitive
 * values read "(sensitive)", it records the configuration it was made from, and `apply(plan)`
 * applies exactly it.
 */
export type PlanResult =
  | {
      ok: true;
      plan: Plan;
      /** Whether it creates, updates or deletes anything (audit reports alone do not count). */
      hasChanges: boolean;
    }
  | {
      ok: false;
      /** As `loadDesiredState` lists them: past the first 100, one more counts the rest. */
      errors: ConfigError[];
      /** How many problems the configuration has in all. */
      problems: number;
    };

/** What the library's plan and apply share: the loaded state, its redactor and its connection. */
export interface Loaded {
  state: DesiredState;
  redactor: Redactor;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** Loads the configuration, with every error's message redacted (it may quote a value). */
export function load(
  configPaths: readonly string[],
  options: LoadingOptions,
): { ok: true; loaded: Loaded } | { ok: false; errors: ConfigError[]; problems: number } {
  const redactor = options.redactor ?? new Redactor();
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const result = loadDesiredState(configPaths, {
    cwd,
    env,
    redactor,
  });
  if (!result.ok) {
    return {
      ok: false,
      errors: result.errors.map((error) => ({ ...error, message: redactor.redact(error.message) })),
      problems: result.problems,
    };
  }
  return { ok: true, loaded: { state: result.state, redactor, env, cwd } };
}

/** Connects the loaded state's targets, at the shard's share of the rate budget. */
export function connectFor(
  loaded: Loaded,
  options: ConnectOptions,
  shard: Shard | undefined,
): Promise<Connection> {
  return connect(
    loaded.state,
    { ...options, ...(shard === undefined ? {} : { shareOfBudget: 1 / shard.count }) },
    { cwd: loaded.cwd, redactor: loaded.redactor },
  );
}

/**
 * The plan as a saved plan holds it: written by the plan-file codec through the redactor and read
 * back, so it is plain data, shows no sensitive value and is the same whether kept in memory or in
 * a file.
 */
export function asSaved(redactor: Redactor, plan: Plan): Plan {
  const text = redactor.redact(planFileText(redactor.plan(plan)));
  return readPlan({ source: "plan", text });
}

/**
 * Reads live state for everything the configuration names and returns the plan. The configuration
 * paths are files or directories, as `forgeplan plan -c` takes them (none: forgeplan.yaml).
 */
export async function plan(
  configPaths: readonly string[],
  options: PlanOptions = {},
): Promise<PlanResult> {
  const loading = load(configPaths, options);
  if (!loading.ok) return loading;
  const { loaded } = loading;
  const connection = await connectFor(loaded, options, options.shard);
  const fresh = await planPart(loaded.state, connection.readers, options.shard, {
    rotateSecrets: options.rotateSecrets === true,
    rotateSecretNames: options.rotateSecretNames ?? [],
    ...(options.reads === undefined ? {} : { reads: options.reads }),
    ...(options.targets?.length ? { targets: new TargetFilter(options.targets) } : {}),
    ...(options.removalLimit ? { removalLimit: options.removalLimit } : {}),
  });
  const config = configPaths.length > 0 ? [...configPaths] : [DEFAULT_CONFIG];
  const result = asSaved(loaded.redactor, { ...fresh, config });
  return { ok: true, plan: result, hasChanges: hasChanges(result) };
}
