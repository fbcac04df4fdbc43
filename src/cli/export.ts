import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { stringify } from "yaml";
import type { DesiredState } from "../config/model.js";
import { ExportError, type ExportRequest, exportState } from "../engine/export.js";
import { PROPERTY_NAME } from "../config/fields.js";
import { parseFlags } from "./args.js";
import { type Command, CliError } from "./io.js";
import { connectionFlags, loadState, openSession } from "./session.js";

const help = `usage: forgeplan export [--repo OWNER/REPO|OWNER/GLOB]... [--where PROPERTY=VALUE]... [--project ID]... [--group ID]... [-c FILE]

Prints desired-state YAML read from live state; planning it shows no changes. Repository settings
(branch protections, webhooks without their write-only secrets) are written out in full; projects and
groups are listed as comments, since their clean-ups name what must not exist.
  --repo OWNER/REPO     a repository to export (repeatable); a glob (acme/*) exports every
                        repository it selects: what all of them share on one glob entry, the rest
                        on each repository's own entry
  --where NAME=VALUE    only the repositories of a glob whose custom property NAME has VALUE
                        (repeatable; the same NAME twice accepts either value), written as the
                        glob entry's where
  --project ID          a planning project whose boards to list (repeatable)
  --group ID            a planning group whose epics to list (repeatable)
  -c, --config FILE     take the targets from this config (default: forgeplan.yaml if present,
                        else the default GitHub and GitLab targets)
  --sandbox, --sandbox-url URL   read from a sandbox instead
`;

/** `--where team=payments --where team=web`: property names (lower-cased) and the values accepted. */
function propertiesWanted(flags: readonly string[]): Record<string, string[]> | undefined {
  if (flags.length === 0) return undefined;
  const wanted: Record<string, string[]> = {};
  for (const flag of flags) {
    const equals = flag.indexOf("=");
    const name = flag.slice(0, equals).toLowerCase();
    const value = flag.slice(equals + 1);
    if (equals < 0 || !PROPERTY_NAME.test(name) || value === "") {
      throw new CliError(
        `export: --where expects PROPERTY=VALUE such as team=payments, got '${flag}'`,
      );
    }
    (wanted[name] ??= []).push(value);
  }
  return wanted;
}

/**
 * `forgeplan export`: prints desired-state YAML for the named repositories, projects and groups,
 * read from live state. Without a config file it uses the default targets (GitHub and GitLab).
 */
export const exportCommand: Command = async (argv, io) => {
  const { values } = parseFlags("export", argv, {
    ...connectionFlags,
    repo: { type: "string", multiple: true },
    where: { type: "string", multiple: true },
    project: { type: "string", multiple: true },
    group: { type: "string", multiple: true },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  const projects = values.project ?? [];
  const groups = values.group ?? [];
  const where = propertiesWanted(values.where ?? []);
  const request: ExportRequest = {
    repos: values.repo ?? [],
    ...(where !== undefined && { where }),
    sections: new Map(
      (
        [
          ["projects", projects],
          ["groups", groups],
        ] as const
      ).filter(([, ids]) => ids.length > 0),
    ),
  };
  if (request.repos.length + projects.length + groups.length === 0) {
    throw new CliError(
      "export: name what to export with --repo OWNER/REPO, --project ID or --group ID",
    );
  }
  const configured =
    (values.config?.length ?? 0) > 0 || existsSync(resolve(io.cwd, "forgeplan.yaml"));
  // Without a config file, the default targets apply: read them from an empty desired state.
  const state: DesiredState = configured
    ? loadState("export", values, io)
    : loadState("export", { ...values, config: ["(defaults)"] }, io, () => "version: 1\n");
  const repositoryTarget = state.targets.find((target) => target.type === "repository");
  const planningTarget = state.targets.find((target) => target.type === "planning");
  const use = [
    ...(request.repos.length > 0 && repositoryTarget ? [repositoryTarget.name] : []),
    ...(projects.length + groups.length > 0 && planningTarget ? [planningTarget.name] : []),
  ];
  const session = await openSession("export", values, io, state, use);
  try {
    const exported = await exportState(request, (type) => {
      const target = type === "repository" ? repositoryTarget : planningTarget;
      return target && session.readers.get(target.name);
    });
    const header = [
      "# Exported by forgeplan from live state; `forgeplan plan` on it shows no changes.",
      ...exported.comments.map((comment) => `# ${comment}`),
    ];
    io.stdout.write(`${header.join("\n")}\n${stringify(exported.document, { lineWidth: 0 })}`);
    return 0;
  } catch (error) {
    if (error instanceof ExportError) throw new CliError(`export: ${error.message}`);
    throw error;
  } finally {
    await session.close();
  }
};
