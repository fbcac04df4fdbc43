import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { stringify } from "yaml";
import type { DesiredState } from "../config/model.js";
import { MigrationError, migrateProtections } from "../engine/migrate-protection.js";
import { parseFlags } from "./args.js";
import { type Command, CliError } from "./io.js";
import { connectionHelp, loadState, openSession, readOnlyFlags } from "./session.js";

export const flags = {
  ...readOnlyFlags,
  repo: { type: "string", multiple: true },
  stage: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan migrate protection-to-rulesets [--repo OWNER/REPO]... [-c FILE]... [--stage]

Reads classic branch protections and prints desired-state YAML with a ruleset per protected branch
that enforces what the protection enforces and replaces it (replaces_protection). Planned, each
change creates or updates the ruleset, checks GET …/rules/branches/<branch> for rules that cover
the old protection, and only then deletes it. What has no exact ruleset equivalent is listed in
comments (and in the plan's notes), never guessed.
  --repo OWNER/REPO        every protected branch of this repository (repeatable)
  -c, --config FILE        without --repo: the branches under branch_protection of the repositories
                           this configuration selects; with --repo: only its targets
  --stage                  write the rulesets in evaluate mode: applying creates them beside the
                           classic protections; set enforcement: active later to replace those
${connectionHelp(["config", "write-interval"])}  -h, --help               this text
`;

/** `forgeplan migrate protection-to-rulesets`. */
export const migrate: Command = async (argv, io) => {
  const { values, positionals } = parseFlags("migrate", argv, flags, { positionals: true });
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  const [what, ...extra] = positionals;
  if (what !== "protection-to-rulesets" || extra.length > 0) {
    throw new CliError(
      `migrate: expected 'forgeplan migrate protection-to-rulesets', got '${positionals.join(" ")}'`,
    );
  }
  const repos = values.repo ?? [];
  const configured =
    (values.config?.length ?? 0) > 0 || existsSync(resolve(io.cwd, "forgeplan.yaml"));
  if (repos.length === 0 && !configured) {
    throw new CliError("migrate: name the repositories with --repo OWNER/REPO or a config with -c");
  }
  // With --repo and no config file, the default targets apply, as for export.
  const state: DesiredState = configured
    ? loadState("migrate", values, io)
    : loadState("migrate", { ...values, config: ["(defaults)"] }, io, () => "version: 1\n");
  const target = state.targets.find((candidate) => candidate.type === "github");
  if (target === undefined) throw new CliError("migrate: no GitHub target to read from");
  const session = await openSession("migrate", values, io, state, [target.name]);
  try {
    const migrated = await migrateProtections(
      repos.length > 0 ? { kind: "repos", repos, target: target.name } : { kind: "config", state },
      session.readers,
      { stage: values.stage === true },
    );
    const header = [
      "# Written by forgeplan migrate protection-to-rulesets from live state. Each ruleset replaces the",
      "# classic protection of the branches under replaces_protection: plan shows the order.",
      ...migrated.comments.map((comment) => `# ${comment}`),
    ];
    io.stdout.write(`${header.join("\n")}\n${stringify(migrated.document, { lineWidth: 0 })}`);
    return 0;
  } catch (error) {
    if (error instanceof MigrationError) throw new CliError(`migrate: ${error.message}`);
    throw error;
  } finally {
    await session.close();
  }
};
