import type { DesiredState } from "../config/model.js";
import { keepDriftIssue } from "../report/ci/steps.js";
import { hasDrift } from "../report/drift-issue.js";
import { githubHost } from "../report/github/host.js";
import { type ForgeClient, ForgeError } from "../forge/client.js";
import { parseFlags } from "./args.js";
import { type Command, CliError, type CliIO } from "./io.js";
import {
  colorFlag,
  colorHelp,
  maxLengthFlag,
  maxLengthHelp,
  maxLengthOption,
  parseFormat,
  printPlan,
  savePlan,
  useColor,
} from "./output.js";
import { parseReads, readsFlag, readsHelp } from "./reads.js";
import { connectionFlags, connectionHelp, loadState, openSession } from "./session.js";
import { planPart, shardClientOptions, shardOption, targetOption } from "./sharding.js";

export const flags = {
  ...connectionFlags,
  ...colorFlag,
  ...maxLengthFlag,
  ...readsFlag,
  format: { type: "string" },
  out: { type: "string" },
  refresh: { type: "boolean" },
  "report-issue": { type: "string" },
  shard: { type: "string" },
  "shard-share": { type: "string" },
  target: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan drift [-c FILE|DIR]... [--format text|markdown|json] [--out PLAN.json]
                       [--cache DIR [--refresh]] [--report-issue OWNER/REPO] [--shard K/N]

The plan for scheduled runs: reports anything that differs from the desired state, audit findings
included, and changes nothing.
${connectionHelp(["cache"])}  --format FORMAT          text (default), markdown, json
${maxLengthHelp}${colorHelp}${readsHelp}  --out PLAN.json          also save the plan as JSON
  --cache DIR              keep the ETag and body of every read in DIR between runs: a resource that
                           has not changed is answered 304 (no rate budget) and planned from its body
  --refresh                read everything in full this time (the cache is rewritten)
  --report-issue OWNER/REPO  keep one drift issue there: opened or updated on drift, closed once gone
  --target ADDRESS         check only what this address matches (repeatable; globs allowed)
  --shard K/N              check only shard K of N, at 1/N of the token's limits
  --shard-share F          this shard's share of the token's limits instead of 1/N (0.5 or 1/2)
  -h, --help               this text
Exit 0: no drift; 2: drift (a create, update, delete or audit finding); 1: errors.
`;

function parseRepo(text: string): { owner: string; repo: string } {
  const match = /^([\w.-]+)\/([\w.-]+)$/.exec(text);
  if (match === null) {
    throw new CliError(`drift: --report-issue expects OWNER/REPO, got '${text}'`);
  }
  return { owner: match[1]!, repo: match[2]! };
}

/** The connection the issue goes through: the only GitHub target, or the one named "github". */
function issueTarget(state: DesiredState): string {
  const repositoryTargets = state.targets.filter((target) => target.type === "github");
  if (repositoryTargets.length === 1) return repositoryTargets[0]!.name;
  if (repositoryTargets.some((target) => target.name === "github")) return "github";
  throw new CliError(
    "drift: --report-issue goes through the GitHub target named 'github'; the config has none",
  );
}

function reportCacheUse(io: CliIO, clients: Iterable<ForgeClient>): void {
  let requests = 0;
  let notModified = 0;
  for (const client of clients) {
    const stats = client.stats();
    requests += stats.requests;
    notModified += stats.notModified;
  }
  io.stderr.write(
    `forgeplan: ${notModified} of ${requests} requests answered 304 Not Modified from the cache\n`,
  );
}

/** `forgeplan drift`: exit 0 no drift, 2 drift, 1 errors. */
export const drift: Command = async (argv, io) => {
  const { values } = parseFlags("drift", argv, flags);
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  const format = parseFormat("drift", values.format);
  const markdownOptions = maxLengthOption("drift", format, values["max-length"]);
  const shard = shardOption("drift", values.shard);
  const reads = parseReads("drift", values.reads);
  const targets = targetOption("drift", values.target);
  const issueRepo =
    values["report-issue"] === undefined ? undefined : parseRepo(values["report-issue"]);
  if (issueRepo !== undefined && targets !== undefined) {
    throw new CliError(
      "drift: --report-issue needs the whole plan: a targeted check would close the issue over drift it did not look at",
    );
  }
  if (issueRepo !== undefined && shard !== undefined) {
    throw new CliError(
      "drift: --report-issue needs the whole plan; with shards, merge their plans (plan --merge) and report from there",
    );
  }
  if (values.refresh && values.cache === undefined) {
    throw new CliError("drift: --refresh only means something with --cache DIR");
  }
  const state = loadState("drift", values, io);
  const viaTarget = issueRepo === undefined ? undefined : issueTarget(state);
  const session = await openSession(
    "drift",
    values,
    io,
    state,
    viaTarget === undefined ? [] : [viaTarget],
    shardClientOptions("drift", shard, values["shard-share"]),
  );
  try {
    const plan = await planPart("drift", state, session.readers, shard, {
      reads,
      ...(targets ? { targets } : {}),
    });
    printPlan(io, plan, format, useColor(io, values["no-color"]), markdownOptions);
    if (values.out) savePlan("drift", io, plan, values.out);
    if (values.cache !== undefined) reportCacheUse(io, session.clients.values());
    const drifted = hasDrift(plan);
    if (issueRepo !== undefined && viaTarget !== undefined) {
      const client = session.clients.get(viaTarget);
      if (client === undefined) throw new CliError(`drift: target '${viaTarget}' is not connected`);
      const kept = await keepDriftIssue(githubHost(client, issueRepo), plan, io.redactor, {}).catch(
        (error: unknown) => {
          if (error instanceof ForgeError) {
            throw new CliError(`drift: could not report the drift issue: ${error.message}`);
          }
          throw error;
        },
      );
      if (kept.status === "left") io.stderr.write(`forgeplan: ${kept.reason}\n`);
      else {
        const { result } = kept;
        if (result.action !== "none") {
          io.stderr.write(
            `forgeplan: drift issue ${issueRepo.owner}/${issueRepo.repo}#${result.number} ${result.action}\n`,
          );
        }
        if (result.warning !== undefined) {
          io.stderr.write(`forgeplan: warning: ${result.warning}\n`);
        }
      }
    }
    if (plan.errors > 0) return 1;
    return drifted ? 2 : 0;
  } finally {
    await session.close();
  }
};
