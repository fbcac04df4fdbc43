import { READS_MODES } from "../engine/bulk/reads.js";
import { parseShard, type Shard } from "../engine/shard.js";
import { FORMATS, type Format } from "../render/index.js";

/**
 * The Action's inputs, read from the environment the runner sets (`INPUT_<NAME>`, the name upper-cased
 * with spaces as underscores; hyphens stay) and checked before anything runs.
 */

export const COMMANDS = ["plan", "apply", "drift"] as const;
export type ActionCommand = (typeof COMMANDS)[number];

export interface ActionInputs {
  command: ActionCommand;
  config: string[];
  format: Format;
  /** undefined: decided by the event (on for pull requests, unless sharded). */
  comment: boolean | undefined;
  allowDelete: boolean;
  allowVisibility: boolean;
  allowCreate: boolean;
  /** apply: GitLab protections changed by unprotecting and protecting again (--allow-protection-gap). */
  allowProtectionGap: boolean;
  /** apply: the rest of a plan with errors is applied (forgeplan's --allow-plan-errors). */
  allowPlanErrors: boolean;
  concurrency?: string;
  writeInterval?: string;
  /** How repositories are read: auto, rest or graphql (forgeplan's --reads). */
  reads?: string;
  shard?: Shard;
  /** Plan files or directories of them, for `plan --merge`. */
  merge: string[];
  cache?: string;
  reportIssue?: string;
  /**
   * plan: the git revision to plan the configuration's changes from; "none" plans everything;
   * undefined: decided by the event (a pull request's base commit).
   */
  changedFrom?: string;
  githubToken?: string;
  gitlabToken?: string;
  /** Which sticky comment is this step's: the config paths unless given, so configs keep their own. */
  commentKey: string;
  /**
   * The login the github-token writes comments as, when the token cannot say (an App's installation
   * token other than the workflow's own); otherwise asked of the service.
   */
  commentAuthor?: string;
  /** apply: apply a fresh plan even when it is not the one the merged pull request showed. */
  acceptReplan: boolean;
  /** plan, apply: send every managed secret again (`--rotate-secrets`). */
  rotateSecrets: boolean;
  /** plan, apply: send again the secrets of these names (`--rotate-secret NAME`). */
  rotateSecretNames: string[];
  /** The `github` target signs in as this GitHub App (with `privateKey`) instead of with the token. */
  appId?: string;
  privateKey?: string;
}

export class InputError extends Error {
  override name = "InputError";
}

type Env = Readonly<Record<string, string | undefined>>;

function raw(env: Env, name: string): string | undefined {
  const value = env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** The tokens and the App's key, read first so they can be masked before anything else is written. */
export function tokenInputs(env: Env): string[] {
  return ["github-token", "gitlab-token", "private-key"]
    .map((name) => env[`INPUT_${name.toUpperCase()}`])
    .filter((value): value is string => value !== undefined && value.trim() !== "");
}

/** YAML 1.2 core booleans, as the runner's own toolkit accepts them. */
function boolean(env: Env, name: string): boolean | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  if (["true", "True", "TRUE"].includes(value)) return true;
  if (["false", "False", "FALSE"].includes(value)) return false;
  throw new InputError(`input '${name}' must be true or false, got '${value}'`);
}

function list(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(/\s+/).filter((item) => item !== "");
}

export function readInputs(env: Env): ActionInputs {
  const command = raw(env, "command") ?? "plan";
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new InputError(`input 'command' must be one of ${COMMANDS.join(", ")}, got '${command}'`);
  }
  const format = raw(env, "format") ?? "text";
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new InputError(`input 'format' must be one of ${FORMATS.join(", ")}, got '${format}'`);
  }
  const commentText = raw(env, "comment");
  const comment = commentText === "auto" ? undefined : boolean(env, "comment");
  const shardText = raw(env, "shard");
  let shard: Shard | undefined;
  if (shardText !== undefined) {
    try {
      shard = parseShard(shardText);
    } catch (error) {
      throw new InputError(`input 'shard' ${(error as Error).message}`);
    }
  }
  const merge = list(raw(env, "merge"));
  if (merge.length > 0 && (command !== "plan" || shard !== undefined)) {
    throw new InputError(
      "input 'merge' combines shard plans: use it with command plan and no shard",
    );
  }
  const cache = raw(env, "cache");
  const reportIssue = raw(env, "report-issue");
  if (command !== "drift" && (cache !== undefined || reportIssue !== undefined)) {
    throw new InputError("inputs 'cache' and 'report-issue' belong to command drift");
  }
  const acceptReplan = boolean(env, "accept-replan") ?? false;
  if (acceptReplan && command !== "apply") {
    throw new InputError("input 'accept-replan' belongs to command apply");
  }
  const changedFrom = raw(env, "changed-from");
  const ownRevision = changedFrom !== undefined && changedFrom !== "auto" && changedFrom !== "none";
  if (ownRevision && (command !== "plan" || shard !== undefined || merge.length > 0)) {
    throw new InputError(
      "input 'changed-from' plans one change whole: use it with command plan, without shard or merge",
    );
  }
  const rotateSecrets = boolean(env, "rotate-secrets") ?? false;
  const rotateSecretNames = list(raw(env, "rotate-secret"));
  if (
    (rotateSecrets || rotateSecretNames.length > 0) &&
    (command === "drift" || merge.length > 0)
  ) {
    throw new InputError(
      "inputs 'rotate-secrets' and 'rotate-secret' send secrets again: use them with command plan or apply, without merge",
    );
  }
  const concurrency = raw(env, "concurrency");
  const writeInterval = raw(env, "write-interval");
  const reads = raw(env, "reads");
  if (reads !== undefined && !(READS_MODES as readonly string[]).includes(reads)) {
    throw new InputError(`input 'reads' must be one of ${READS_MODES.join(", ")}, got '${reads}'`);
  }
  const githubToken = raw(env, "github-token");
  const gitlabToken = raw(env, "gitlab-token");
  const appId = raw(env, "app-id");
  const privateKey = raw(env, "private-key");
  if ((appId === undefined) !== (privateKey === undefined)) {
    throw new InputError("inputs 'app-id' and 'private-key' go together: give both or neither");
  }
  if (appId !== undefined && !/^[1-9][0-9]*$/.test(appId)) {
    throw new InputError(`input 'app-id' must be the App's numeric id, got '${appId}'`);
  }
  const config = list(raw(env, "config") ?? "forgeplan.yaml");
  const commentAuthor = raw(env, "comment-author");
  return {
    command: command as ActionCommand,
    config,
    commentKey: raw(env, "comment-key") ?? config.join(" "),
    acceptReplan,
    rotateSecrets,
    rotateSecretNames,
    format: format as Format,
    comment: commentText === undefined ? undefined : comment,
    allowDelete: boolean(env, "allow-delete") ?? false,
    allowVisibility: boolean(env, "allow-visibility") ?? false,
    allowCreate: boolean(env, "allow-create") ?? false,
    allowProtectionGap: boolean(env, "allow-protection-gap") ?? false,
    allowPlanErrors: boolean(env, "allow-plan-errors") ?? false,
    merge,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(writeInterval !== undefined ? { writeInterval } : {}),
    ...(reads !== undefined ? { reads } : {}),
    ...(shard !== undefined ? { shard } : {}),
    ...(cache !== undefined ? { cache } : {}),
    ...(reportIssue !== undefined ? { reportIssue } : {}),
    ...(changedFrom !== undefined && changedFrom !== "auto" ? { changedFrom } : {}),
    ...(githubToken !== undefined ? { githubToken } : {}),
    ...(commentAuthor !== undefined ? { commentAuthor } : {}),
    ...(gitlabToken !== undefined ? { gitlabToken } : {}),
    ...(appId !== undefined && privateKey !== undefined ? { appId, privateKey } : {}),
  };
}
