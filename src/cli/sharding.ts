import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { DesiredState } from "../config/model.js";
import { type ChangesByPlace, type Plan, type Rotation, withRotation } from "../core/plan.js";
import { mergePlans, PlanFileError, type PlanSource } from "../engine/merge.js";
import type { ReadsMode } from "../engine/bulk/reads.js";
import { planChanged } from "../engine/changed.js";
import { measureReads } from "../engine/read-budget.js";
import { type RaisedLimit, withRemovalLimit } from "../engine/plan-part.js";
import { parseShard, type Shard } from "../engine/shard.js";
import type { ResourceReader } from "../resources/context.js";
import { CliError, type CliIO } from "./io.js";
import { TargetFilter } from "../engine/targets.js";

import { BudgetTooSmall } from "../engine/read-budget.js";
import { planPart as planLive } from "../engine/plan-part.js";

/** The plan of live state (engine's planPart); a run that cannot fit the budget is the command's error. */
export async function planPart(
  command: string,
  ...args: Parameters<typeof planLive>
): Promise<Awaited<ReturnType<typeof planLive>>> {
  try {
    return await planLive(...args);
  } catch (error) {
    if (error instanceof BudgetTooSmall) throw new CliError(`${command}: ${error.message}`);
    throw error;
  }
}

/** `--shard K/N` for plan and drift; undefined when the flag is absent. */
export function shardOption(command: string, text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  try {
    return parseShard(text);
  } catch (error) {
    throw new CliError(`${command}: --shard ${(error as Error).message}`);
  }
}

/**
 * What a shard passes to its clients: its part of the token's limits — the rate budget, the points
 * a minute, content creation, CPU time and the requests in flight — which GitHub counts per account
 * whichever process sends, and which the N jobs of a matrix spend at once. 1/N unless
 * `--shard-share` says otherwise (shards run one after another, or each with a token of its own).
 */
export function shardClientOptions(
  command: string,
  shard: Shard | undefined,
  shareText: string | undefined,
): { shareOfBudget?: number } {
  if (shareText === undefined) return shard === undefined ? {} : { shareOfBudget: 1 / shard.count };
  if (shard === undefined) throw new CliError(`${command}: --shard-share needs --shard K/N`);
  const fraction = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(shareText);
  const share = fraction ? Number(fraction[1]) / Number(fraction[2]) : Number(shareText);
  if (shareText.trim() === "" || !(share > 0 && share <= 1)) {
    throw new CliError(
      `${command}: --shard-share expects a share of the token's limits above 0 and at most 1 (0.5 or 1/2), got '${shareText}'`,
    );
  }
  return { shareOfBudget: share };
}

/** `--target ADDRESS`, repeatable: what a run acts on; undefined without the flag. */
export function targetOption(
  command: string,
  patterns: readonly string[] | undefined,
): TargetFilter | undefined {
  if (patterns === undefined || patterns.length === 0) return undefined;
  for (const pattern of patterns) {
    if (pattern.trim() === "" || pattern.split("/").length < 2) {
      throw new CliError(
        `${command}: --target expects an address such as github/acme/api/branch_protection/main (globs allowed: github/acme/*), got '${pattern}'`,
      );
    }
  }
  return new TargetFilter(patterns);
}

/** The plan of what the configuration changes since a revision (`base`: its state there, if any). */
export async function planChanges(
  command: string,
  changedFrom: string,
  base: DesiredState | undefined,
  head: DesiredState,
  readers: ReadonlyMap<string, ResourceReader>,
  {
    deleted,
    removalLimit,
    reads,
    ...rotation
  }: Rotation & {
    /** When the plan verifies an apply: the deletes it carried out. */
    deleted?: ChangesByPlace;
    /** The removal limit this run raised. */
    removalLimit?: RaisedLimit;
    /** How repositories are read (`--reads`): a plan of a change keeps every read option. */
    reads?: ReadsMode;
  },
): Promise<Plan> {
  const { result: planned, budget } = await measureReads(readers, () =>
    planChanged({
      base,
      head,
      changedFrom,
      readers,
      now: Date.now(),
      ...rotation,
      ...(deleted ? { deleted } : {}),
      ...(reads ? { reads } : {}),
    }).catch((error: unknown) => {
      if (error instanceof BudgetTooSmall) throw new CliError(`${command}: ${error.message}`);
      throw error;
    }),
  );
  return withRotation({ ...withRemovalLimit(planned, head, removalLimit), budget }, rotation);
}

/** `plan --merge a.json b.json …`: the shard plans, read relative to the working directory. */
export function mergePlanFiles(command: string, io: CliIO, files: readonly string[]): Plan {
  if (files.length === 0) {
    throw new CliError(`${command}: --merge needs the plan files of the shards (saved with --out)`);
  }
  const sources: PlanSource[] = files.map((file) => {
    try {
      return { source: file, text: readFileSync(resolve(io.cwd, file), "utf8") };
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new CliError(`${command}: cannot read the plan ${file}: ${reason}`);
    }
  });
  try {
    return mergePlans(sources);
  } catch (error) {
    if (error instanceof PlanFileError) throw new CliError(`${command}: ${error.message}`);
    throw error;
  }
}
