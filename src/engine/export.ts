import { describeFailure } from "../core/failure-text.js";
import { describeSelector } from "../config/glob.js";
import type { ScopedEntry, Selector } from "../config/model.js";
import type { TargetType } from "../config/spec.js";
import type { ResourceReader } from "../resources/context.js";
import { INSTANCE_SCOPE, LIFECYCLE_KIND, REPOSITORY_KINDS } from "../resources/index.js";
import { expandRepositories } from "./expand.js";
import { loaderAccepted } from "./export-accepted.js";
import { exportGitlab } from "./export-gitlab.js";
import {
  type ExportComment,
  ExportError,
  exportOwner,
  reading,
  type Unread,
} from "./export-read.js";
import { dropParts, identity, keepParts, partsOf } from "./setting-parts.js";

export { type ExportComment, ExportError } from "./export-read.js";

/**
 * Builds desired-state YAML data from live state, kind by kind: what it returns validates and plans
 * as no-op against the same live state.
 */
export interface ExportRequest {
  /** `owner/repo`, or a glob over one owner's repositories (`acme/*`). */
  repos: string[];
  /** Organizations whose own entry to export (their settings, teams, Actions, hooks …). */
  organizations?: string[];
  /** Custom properties the repositories of a glob must have: name → values any of which will do. */
  where?: Record<string, string[]>;
  /** GitLab projects, by full path or numeric id. */
  projects?: string[];
  /**
   * GitLab groups by full path or numeric id: each, every group below it and every project in
   * them (./export-gitlab.ts).
   */
  groups?: string[];
  /**
   * The GitLab target's instance entry (its CI/CD variables): an administrator's, so never part of
   * a group's export, whose token is a group owner's.
   */
  instance?: boolean;
}

export interface ExportedState {
  document: Record<string, unknown>;
  /** Facts worth a comment in the YAML (existing boards and links a clean-up could name). */
  comments: ExportComment[];
  /**
   * Each part that could not be read, with the error: the document leaves it out (and manages it
   * nowhere, so planning it changes nothing there), and the YAML says so in a comment.
   */
  unread: ExportComment[];
}

/** A repository's entry, with every kind that could be read; `failed` names the setting keys that could not. */
async function exportRepo(reader: ResourceReader, fullName: string, unread: Unread) {
  const [owner, name, extra] = fullName.split("/");
  if (!owner || !name || extra !== undefined) {
    throw new ExportError(`--repo expects OWNER/REPO, got '${fullName}'`);
  }
  const repo = { owner, name };
  const entry: Record<string, unknown> = { name: fullName, target: reader.target };
  const failed = new Set<string>();
  for (const kind of REPOSITORY_KINDS) {
    const exported = kind.repository.export;
    if (exported === undefined) continue;
    const key = kind.repository.setting.key;
    const result = await reading(`the ${key} of ${fullName}`, owner, unread, () =>
      exported(reader, repo),
    );
    if (!result.read) failed.add(key);
    else if (result.value !== undefined) entry[key] = result.value;
  }
  return { entry, failed };
}

const isGlob = (name: string) => /[*?[]/.test(name);

/** A repository a glob (and `where`) selects on the service, and whether it is archived. */
interface Match {
  name: string;
  archived: boolean;
}

/**
 * The repositories a glob (and `where`) selects on the service, archived ones included: the entry
 * asked for says what archived repositories get, so the expansion lists them too.
 */
async function globMatches(
  reader: ResourceReader,
  selector: Extract<Selector, { kind: "glob" }>,
): Promise<Match[] | { unreadable: string }> {
  const entry: ScopedEntry = {
    scope: "repository",
    target: reader.target,
    origin: { file: "export", line: 1, column: 1 },
    selector,
    layers: [],
    settings:
      LIFECYCLE_KIND === undefined
        ? {}
        : { [LIFECYCLE_KIND.part.setting.key]: { archived_repositories: "skip" } },
  };
  const expansion = await expandRepositories(
    { defaults: [], repositories: [entry] },
    new Map([[reader.target, reader]]),
  );
  const failed = expansion.errors[0];
  if (failed !== undefined) {
    return {
      unreadable: `not exported: ${describeSelector(selector)}, which could not be listed: ${describeFailure(failed.error)}`,
    };
  }
  return expansion.repos.map((repo) => ({
    name: `${repo.owner}/${repo.name}`,
    archived: repo.archived === true,
  }));
}

/**
 * Moves onto `shared` (the glob entry) every resource all the `named` entries have alike, and takes
 * it off theirs: each resource is then defined once per repository, so planning it shows no change
 * whatever the merge order. Only what several repositories share is a glob's: a value of one
 * repository would be copied to every repository created afterwards. A kind some repository could
 * not be read for stays off the glob entry, which would otherwise manage it there too.
 */
function factorShared(
  shared: Record<string, unknown>,
  named: Array<Record<string, unknown>>,
  failed: ReadonlySet<string>,
): void {
  if (named.length < 2) return;
  for (const kind of REPOSITORY_KINDS) {
    const setting = kind.repository.setting;
    if (failed.has(setting.key)) continue;
    const [first, ...rest] = named.map((entry) => partsOf(setting, entry[setting.key]));
    const alike = (first ?? []).filter((part) =>
      rest.every((parts) =>
        parts.some(
          (other) => other.id === part.id && identity(other.value) === identity(part.value),
        ),
      ),
    );
    if (alike.length === 0) continue;
    const paths = alike.flatMap((part) => part.paths);
    shared[setting.key] = keepParts(named[0]![setting.key], paths);
    for (const entry of named) {
      const left = dropParts(entry[setting.key], paths);
      if (left === undefined) delete entry[setting.key];
      else entry[setting.key] = left;
    }
  }
}

/** Whether an entry manages anything: a repository with nothing of its own is the glob's alone. */
const managesAnything = (entry: Record<string, unknown>) =>
  REPOSITORY_KINDS.some((kind) => entry[kind.repository.setting.key] !== undefined);

/**
 * A glob's repositories as one glob entry (with the `where` asked for) holding what the unarchived
 * ones share, and one entry per repository with the rest. Archived repositories are not the glob's
 * (it leaves them out, as it writes no archived_repositories): each is written whole on an entry of
 * its own, archived as it is, with a comment.
 */
async function exportGlob(
  reader: ResourceReader,
  glob: string,
  where: Record<string, string[]> | undefined,
  unread: Unread,
): Promise<{ entries: Array<Record<string, unknown>>; comments: string[] }> {
  const [owner = "", pattern = "", extra] = glob.split("/");
  if (owner === "" || pattern === "" || extra !== undefined) {
    throw new ExportError(`--repo expects OWNER/REPO or OWNER/GLOB, got '${glob}'`);
  }
  const selector = {
    kind: "glob" as const,
    owner,
    pattern,
    exclude: [],
    ...(where !== undefined && { properties: where }),
  };
  const matches = await globMatches(reader, selector);
  if (!Array.isArray(matches)) {
    unread.push({ text: matches.unreadable, owner });
    return { entries: [], comments: [] };
  }
  const exported = await Promise.all(
    matches.map(async (match) => ({ ...match, ...(await exportRepo(reader, match.name, unread)) })),
  );
  const selected = exported.filter((repo) => !repo.archived);
  const archived = exported.filter((repo) => repo.archived);
  const named = selected.map((repo) => repo.entry);
  const shared: Record<string, unknown> = {
    name: glob,
    ...(where !== undefined && {
      where: {
        properties: Object.fromEntries(
          Object.entries(where).map(([key, values]) => [
            key,
            values.length === 1 ? values[0] : values,
          ]),
        ),
      },
    }),
    target: reader.target,
  };
  factorShared(shared, named, new Set(selected.flatMap((repo) => [...repo.failed])));
  const names = selected.map((repo) => repo.name);
  const what = describeSelector(selector);
  const comments = [
    names.length === 0
      ? `${what} selects no repository now`
      : names.length === 1
        ? `${what} selects only ${names[0]}: its settings are on its own entry, since a glob holds only what several repositories share`
        : `${what} selects ${names.join(", ")}: what all of them share is on its entry, the rest on each repository's own`,
    ...archived.map(
      (repo) =>
        `${repo.name} is archived: ${what} leaves archived repositories out (it writes no archived_repositories), so it is written whole on an entry of its own; nothing is planned for it while it stays archived`,
    ),
  ];
  return {
    entries: [
      shared,
      ...named.filter(managesAnything),
      ...archived.flatMap((repo) => readAnything(repo)),
    ],
    comments,
  };
}

export async function exportState(
  request: ExportRequest,
  readerOf: (targetType: TargetType) => ResourceReader | undefined,
): Promise<ExportedState> {
  const document: Record<string, unknown> = { version: 1 };
  const comments: ExportComment[] = [];
  const unread: Unread = [];
  if (request.repos.length > 0) {
    const reader = readerOf("github");
    if (!reader) throw new ExportError("no GitHub target to export from");
    if (request.where !== undefined && !request.repos.some(isGlob)) {
      throw new ExportError(
        "--where selects among the repositories of a glob: give --repo OWNER/GLOB",
      );
    }
    const exported = await Promise.all(
      request.repos.map(async (name) =>
        isGlob(name)
          ? exportGlob(reader, name, request.where, unread)
          : { entries: readAnything(await exportRepo(reader, name, unread)), comments: [] },
      ),
    );
    exported.forEach((item, index) => {
      const owner = request.repos[index]!.split("/")[0]!;
      comments.push(...item.comments.map((text) => ({ text, owner })));
    });
    document.repositories = exported.flatMap((item) => item.entries);
  }
  if ((request.organizations ?? []).length > 0) {
    const reader = readerOf("github");
    if (!reader) throw new ExportError("no GitHub target to export from");
    const entries = [];
    for (const org of request.organizations ?? []) {
      const exported = await exportOwner("organization", reader, org, unread);
      entries.push(...exported.entries);
      comments.push(...exported.comments.map((text) => ({ text, owner: org })));
    }
    if (entries.length > 0) document.organizations = entries;
  }
  if ((request.projects ?? []).length + (request.groups ?? []).length > 0) {
    const reader = readerOf("gitlab");
    if (!reader) throw new ExportError("no GitLab target to export from");
    const exported = await exportGitlab(reader, request, unread);
    if (exported.projects.length > 0) document.projects = exported.projects;
    if (exported.groups.length > 0) document.groups = exported.groups;
    comments.push(...exported.comments.map((text) => ({ text })));
  }
  if (request.instance === true) {
    const reader = readerOf("gitlab");
    if (!reader) throw new ExportError("no GitLab target to export from");
    const exported = await exportOwner("instance", reader, INSTANCE_SCOPE, unread);
    if (exported.entries.length > 0) document.instance = exported.entries;
    comments.push(...exported.comments.map((text) => ({ text })));
  }
  const accepted = loaderAccepted(document);
  if (accepted.refused !== undefined) {
    throw new ExportError(`what was read does not load as a configuration: ${accepted.refused}`);
  }
  return { document: accepted.document, comments: [...comments, ...accepted.comments], unread };
}

/** A repository's entry, unless nothing of it could be read: an entry of nothing manages nothing. */
function readAnything(repo: { entry: Record<string, unknown>; failed: ReadonlySet<string> }) {
  return managesAnything(repo.entry) || repo.failed.size === 0 ? [repo.entry] : [];
}
