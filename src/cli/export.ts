import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { stringify } from "yaml";
import type { DesiredState } from "../config/model.js";
import {
  type ExportComment,
  ExportError,
  type ExportRequest,
  type ExportedState,
  exportState,
} from "../engine/export.js";
import { OWNER_NAME, PROPERTY_NAME } from "../config/fields.js";
import { parseFlags } from "./args.js";
import { type Command, CliError, type CliIO } from "./io.js";
import { Progress, realEvery, tightestWindow } from "./progress.js";
import { connectionHelp, loadState, openSession, readOnlyFlags } from "./session.js";

export const flags = {
  ...readOnlyFlags,
  repo: { type: "string", multiple: true },
  org: { type: "string", multiple: true },
  out: { type: "string" },
  where: { type: "string", multiple: true },
  project: { type: "string", multiple: true },
  group: { type: "string", multiple: true },
  instance: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export const help = `usage: forgeplan export [--repo OWNER/REPO|OWNER/GLOB]... [--org OWNER]... [--where PROPERTY=VALUE]...
                        [--project ID]... [--group ID]... [--instance] [--out FILE|DIR/] [-c FILE]

Prints desired-state YAML read from live state; planning it shows no changes. Repository settings
(branch protections, webhooks without their write-only secrets) are written out in full; what a
clean-up could name (a project's boards, a group's epics) is listed as comments, since clean-ups name
what must not exist.
  --repo OWNER/REPO        a repository to export (repeatable); a glob (acme/*) exports every
                           repository it selects: what several of them share on one glob entry, the
                           rest on each repository's own entry, archived ones whole on their own
  --org OWNER              every repository of OWNER (as --repo OWNER/*) and the organization's
                           settings, Actions permissions, variables, rulesets, hooks and the names of
                           its secrets (write-only values as \${…} placeholders to fill)
  --out FILE|DIR/          write to FILE instead of stdout, or to a directory (a trailing / or an
                           existing one): a file per owner, gitlab.yaml for GitLab's projects, groups
                           and instance
  --where NAME=VALUE       only the repositories of a glob whose custom property NAME has VALUE
                           (repeatable; the same NAME twice accepts either value), written as the
                           glob entry's where
  --project ID|PATH        a GitLab project to export (repeatable)
  --group ID|PATH          a GitLab group, every group below it and every project in them
                           (repeatable)
  --instance               the GitLab instance's own CI/CD variables (an administrator's token;
                           values as \${…} placeholders to fill)
${connectionHelp(["config", "write-interval"])}  -c, --config FILE        take the targets from this config (default: forgeplan.yaml if present,
                           else the default GitHub and GitLab targets)
  -h, --help               this text
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
 * `forgeplan export`: prints desired-state YAML for the named repositories, projects and groups
 * (and the GitLab instance), read from live state. Without a config file it uses the default
 * targets (GitHub and GitLab).
 */
export const exportCommand: Command = async (argv, io) => {
  const { values } = parseFlags("export", argv, flags);
  if (values.help) {
    io.stdout.write(help);
    return 0;
  }
  const projects = values.project ?? [];
  const groups = values.group ?? [];
  const orgs = values.org ?? [];
  const instance = values.instance === true;
  for (const org of orgs) {
    if (!OWNER_NAME.test(org))
      throw new CliError(`export: --org expects a name such as acme, got '${org}'`);
  }
  const where = propertiesWanted(values.where ?? []);
  const request: ExportRequest = {
    // A whole owner: every repository it has, and its organization settings.
    repos: [...(values.repo ?? []), ...orgs.map((org) => `${org}/*`)],
    organizations: orgs,
    ...(where !== undefined && { where }),
    projects,
    groups,
    instance,
  };
  if (request.repos.length + projects.length + groups.length === 0 && !instance) {
    throw new CliError(
      "export: name what to export with --repo OWNER/REPO, --org OWNER, --project ID, --group ID or --instance",
    );
  }
  const configured =
    (values.config?.length ?? 0) > 0 || existsSync(resolve(io.cwd, "forgeplan.yaml"));
  // Without a config file, the default targets apply: read them from an empty desired state.
  const state: DesiredState = configured
    ? loadState("export", values, io)
    : loadState("export", { ...values, config: ["(defaults)"] }, io, () => "version: 1\n");
  const repositoryTarget = state.targets.find((target) => target.type === "github");
  const planningTarget = state.targets.find((target) => target.type === "gitlab");
  const use = [
    ...(request.repos.length > 0 && repositoryTarget ? [repositoryTarget.name] : []),
    ...((projects.length + groups.length > 0 || instance) && planningTarget
      ? [planningTarget.name]
      : []),
  ];
  // Reads are paced like a plan's; a long export says how far it got on stderr.
  const progress = new Progress({
    output: io.stderr,
    now: Date.now,
    every: realEvery,
    budget: () => tightestWindow([...session.clients.values()].map((client) => client.budget())),
  });
  const session = await openSession(
    "export",
    values,
    { ...io, stderr: progress.output },
    state,
    use,
  );
  session.onEvent((event) => progress.event(event));
  try {
    progress.begin("exporting");
    const exported = await exportState(request, (type) => {
      const target = type === "github" ? repositoryTarget : planningTarget;
      return target && session.readers.get(target.name);
    });
    progress.end();
    const files = exportFiles(
      exported,
      values.out === undefined ? false : isDirectory(io, values.out),
    );
    if (values.out === undefined) io.stdout.write(files.get(SINGLE)!);
    else writeFiles(io, values.out, files);
    const unread = exported.unread.length;
    if (unread > 0) {
      // What could be read is written; each part that could not is named in it, and the run fails.
      throw new CliError(
        `export: ${unread} part${unread === 1 ? "" : "s"} could not be read and ${unread === 1 ? "is" : "are"} left out; ` +
          `the YAML names ${unread === 1 ? "it" : "each"} in a comment starting "# not exported:"`,
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof ExportError) throw new CliError(`export: ${error.message}`);
    throw error;
  } finally {
    progress.end();
    await session.close();
  }
};

/** The key of the one document printed or written as one file. */
const SINGLE = "";
const HEADER = "# Exported by forgeplan from live state; `forgeplan plan` on it shows no changes.";

function yamlOf(document: Record<string, unknown>, comments: readonly ExportComment[]): string {
  const header = [HEADER, ...comments.map((comment) => `# ${comment.text}`)];
  return `${header.join("\n")}\n${stringify(document, { lineWidth: 0 })}`;
}

/**
 * The YAML to write: one document, or (for a directory) one file per owner — its repositories and
 * its organization entry — plus `gitlab.yaml` for GitLab projects, groups and instance. The files
 * load together (`-c DIR`) as the one document would.
 */
function exportFiles(exported: ExportedState, split: boolean): Map<string, string> {
  const { document } = exported;
  const comments = [...exported.comments, ...exported.unread];
  if (!split) return new Map([[SINGLE, yamlOf(document, comments)]]);
  const owners = new Map<string, Record<string, unknown[]>>();
  const add = (owner: string, key: string, entry: unknown) => {
    const file = owners.get(owner) ?? {};
    (file[key] ??= []).push(entry);
    owners.set(owner, file);
  };
  const entries = (key: string) => (document[key] as Array<{ name: string }> | undefined) ?? [];
  for (const entry of entries("repositories"))
    add(entry.name.split("/")[0]!, "repositories", entry);
  for (const entry of entries("organizations")) add(entry.name, "organizations", entry);
  // An owner nothing could be read of still gets its file, saying what is missing.
  for (const { owner } of exported.unread)
    if (owner !== undefined && !owners.has(owner)) owners.set(owner, {});
  const files = new Map<string, string>();
  for (const [owner, sections] of owners) {
    const about = comments.filter((comment) => comment.owner === owner);
    files.set(`${owner}.yaml`, yamlOf({ version: 1, ...sections }, about));
  }
  // What is not an owner's (GitLab projects and groups, and the comments listing their live boards and epics).
  const rest = Object.fromEntries(
    Object.entries(document).filter(([key]) => key !== "repositories" && key !== "organizations"),
  );
  const restComments = comments.filter(
    (comment) => comment.owner === undefined || !owners.has(comment.owner),
  );
  if (Object.keys(rest).length > 1 || restComments.length > 0) {
    files.set("gitlab.yaml", yamlOf(rest, restComments));
  }
  return files;
}

function isDirectory(io: CliIO, path: string): boolean {
  if (path.endsWith("/")) return true;
  try {
    return statSync(resolve(io.cwd, path)).isDirectory();
  } catch {
    return false;
  }
}

function writeFiles(io: CliIO, out: string, files: ReadonlyMap<string, string>): void {
  const base = resolve(io.cwd, out);
  try {
    if (files.has(SINGLE)) {
      writeFileSync(
        base,
        io.redactor ? io.redactor.redact(files.get(SINGLE)!) : files.get(SINGLE)!,
      );
      return;
    }
    mkdirSync(base, { recursive: true });
    for (const [name, text] of files) {
      writeFileSync(join(base, name), io.redactor ? io.redactor.redact(text) : text);
    }
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(`export: cannot write ${out}: ${reason}`);
  }
  io.stderr.write(
    `forgeplan: exported ${files.size} file${files.size === 1 ? "" : "s"} to ${out}\n`,
  );
}
