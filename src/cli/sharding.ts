import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { DesiredState } from "../config/model.js";
import { type ChangesByPlace, type Plan, type Rotation, withRotation } from "../core/plan.js";
import { mergePlans, PlanFileError, type PlanSource } from "../engine/merge.js";
import { planChanged } from "../engine/changed.js";
import { parseShard, type Shard } from "../engine/shard.js";
import type { ResourceReader } from "../resources/context.js";
import { CliError, type CliIO } from "./io.js";
import { TargetFilter } from "../engine/targets.js";

export { planPart } from "../engine/plan-part.js";

/** `--shard K/N` for plan and drift; undefined when the flag is absent. */
export function shardOption(command: string, text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  try {
    return parseShard(text);
  } catch (error) {
    throw new CliError(`${command}: --shard ${(error as Error).message}`);
  }
}

/** What a shard passes to its clients: its fair part of a rate budget the N jobs share. */
export function shardClientOptions(shard: Shard | undefined): { shareOfBudget?: number } {
  return shard === undefined ? {} : { shareOfBudget: 1 / shard.count };
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
  changedFrom: string,
  base: DesiredState | undefined,
  head: DesiredState,
  readers: ReadonlyMap<string, ResourceReader>,
  rotation: Rotation,
  /** When the plan verifies an apply: the deletes it carried out. */
  deleted?: ChangesByPlace,
): Promise<Plan> {
  const plan = await planChanged({
    base,
    head,
    changedFrom,
    readers,
    now: Date.now(),
    ...rotation,
    ...(deleted ? { deleted } : {}),
  });
  return withRotation(plan, rotation);
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
