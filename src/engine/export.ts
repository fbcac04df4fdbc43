import { describeFailure } from "../core/failure-text.js";
import { describeSelector } from "../config/glob.js";
import { FAMILY_NAMES } from "../config/fields.js";
import type { ScopedEntry, Selector } from "../config/model.js";
import type { TargetType } from "../config/spec.js";
import { type ResourceReader, ReadFailed } from "../resources/context.js";
import { REPOSITORY_KINDS, SCOPED_KINDS, sectionNamed } from "../resources/index.js";
import { expandRepositories } from "./expand.js";
import { dropParts, identity, keepParts, partsOf } from "./setting-parts.js";

/**
 * Builds desired-state YAML data from live state, kind by kind: what it returns validates and plans
 * as no-op against the same live state.
 */
export interface ExportRequest {
  /** `owner/repo`, or a glob over one owner's repositories (`acme/*`). */
  repos: string[];
  /** Custom properties the repositories of a glob must have: name → values any of which will do. */
  where?: Record<string, string[]>;
  /** GitLab projects, by full path or numeric id. */
  projects?: string[];
  /** Ids to export per section ("projects": project ids or paths …). */
  sections: ReadonlyMap<string, readonly string[]>;
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

export interface ExportComment {
  text: string;
  /** The owner whose repositories the comment is about, so a file per owner can carry it. */
  owner?: string;
}

export class ExportError extends Error {}

/** The parts of an export that could not be read, as the comments that name them. */
type Unread = ExportComment[];

/**
 * Runs a read; a failed one is recorded as one line that says what could not be read (and why),
 * and gives undefined, so the rest of the export goes on.
 */
async function reading<T>(
  what: string,
  owner: string | undefined,
  unread: Unread,
  read: () => Promise<T>,
): Promise<{ read: true; value: T } | { read: false }> {
  try {
    return { read: true, value: await read() };
  } catch (error) {
    if (!(error instanceof ReadFailed)) throw error;
    unread.push({ text: `not exported: ${what}: ${error.message}`, ...(owner ? { owner } : {}) });
    return { read: false };
  }
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
    const result = await reading(`the ${kind.name} settings of ${fullName}`, owner, unread, () =>
      exported(reader, repo),
    );
    if (!result.read) failed.add(key);
    else if (result.value !== undefined) entry[key] = result.value;
  }
  return { entry, failed };
}

/**
 * A project's entry with every kind that could be read (undefined when it manages nothing), and
 * the comments its clean-ups write in place of values.
 */
async function exportProject(reader: ResourceReader, project: string, unread: Unread) {
  const numeric = /^[0-9]+$/.test(project);
  const slash = project.lastIndexOf("/");
  const at = numeric
    ? { owner: "", name: project }
    : { owner: project.slice(0, slash), name: project.slice(slash + 1) };
  const entry: Record<string, unknown> = {
    project: numeric ? Number(project) : project,
    target: reader.target,
  };
  const comments: string[] = [];
  let managed = false;
  for (const kind of SCOPED_KINDS.project) {
    const { part } = kind;
    const key = part.setting.key;
    const result = await reading(
      `the ${key} of project ${project}`,
      undefined,
      unread,
      async () => ({
        value: await part.export?.(reader, at),
        comments: (await part.comments?.(reader, project)) ?? [],
      }),
    );
    if (!result.read) continue;
    comments.push(...result.value.comments);
    if (result.value.value === undefined) continue;
    entry[key] = result.value.value;
    managed = true;
  }
  return { entry: managed ? entry : undefined, comments };
}

const isGlob = (name: string) => /[*?[]/.test(name);

/** The repositories a glob (and `where`) selects on the service, as `owner/name`. */
async function globMatches(
  reader: ResourceReader,
  selector: Extract<Selector, { kind: "glob" }>,
): Promise<string[] | { unreadable: string }> {
  const entry: ScopedEntry = {
    scope: "repository",
    target: reader.target,
    origin: { file: "export", line: 1, column: 1 },
    selector,
    layers: [],
    settings: {},
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
  return expansion.repos.map((repo) => `${repo.owner}/${repo.name}`);
}

/**
 * A glob's repositories as one glob entry (with the `where` asked for) holding every resource all of
 * them have alike, and one entry per repository with the rest: each resource is defined once per
 * repository, so planning it shows no change whatever the merge order. A kind some repository could
 * not be read for stays off the glob entry, which would otherwise manage it there too.
 */
async function exportGlob(
  reader: ResourceReader,
  glob: string,
  where: Record<string, string[]> | undefined,
  unread: Unread,
): Promise<{ entries: Array<Record<string, unknown>>; comment: string | undefined }> {
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
  const names = await globMatches(reader, selector);
  if (!Array.isArray(names)) {
    unread.push({ text: names.unreadable, owner });
    return { entries: [], comment: undefined };
  }
  const exported = await Promise.all(names.map((name) => exportRepo(reader, name, unread)));
  const named = exported.map((repo) => repo.entry);
  const failed = new Set(exported.flatMap((repo) => [...repo.failed]));
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
  const comment =
    names.length === 0
      ? `${describeSelector(selector)} selects no repository now`
      : `${describeSelector(selector)} selects ${names.join(", ")}: what all of them share is on its entry, the rest on each repository's own`;
  // A repository with nothing of its own is written by the glob entry alone.
  const own = named.filter((entry) =>
    REPOSITORY_KINDS.some((kind) => entry[kind.repository.setting.key] !== undefined),
  );
  return { entries: [shared, ...own], comment };
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
          : { entries: readAnything(await exportRepo(reader, name, unread)), comment: undefined },
      ),
    );
    exported.forEach((item, index) => {
      if (item.comment === undefined) return;
      comments.push({ text: item.comment, owner: request.repos[index]!.split("/")[0]! });
    });
    document.repositories = exported.flatMap((item) => item.entries);
  }
  if ((request.projects ?? []).length > 0) {
    const reader = readerOf("gitlab");
    if (!reader) throw new ExportError("no GitLab target to export from");
    const exported = await Promise.all(
      (request.projects ?? []).map((project) => exportProject(reader, project, unread)),
    );
    const entries = exported.flatMap((project) => (project.entry ? [project.entry] : []));
    if (entries.length > 0) document.projects = entries;
    comments.push(...exported.flatMap((project) => project.comments.map((text) => ({ text }))));
  }
  for (const [section, ids] of request.sections) {
    const part = sectionNamed(section)?.part;
    const exported = part?.export;
    if (part === undefined || exported === undefined) {
      throw new ExportError(`nothing exports the section ${section}`);
    }
    const reader = readerOf(part.spec.targetType);
    if (!reader) {
      throw new ExportError(`no ${FAMILY_NAMES[part.spec.targetType]} target to export from`);
    }
    const entries: unknown[] = [];
    for (const id of ids) {
      // An organization's entry travels with its owner's file; a planning one has no owner.
      const owner = section === "organizations" ? id : undefined;
      const result = await reading(`the ${section} entry ${id}`, owner, unread, () =>
        exported(reader, id),
      );
      if (!result.read) continue;
      entries.push(...result.value.entries);
      comments.push(...result.value.comments.map((text) => ({ text })));
    }
    if (entries.length > 0) placeAt(document, section.split("."), entries);
  }
  return { document, comments, unread };
}

/** A repository's entry, unless nothing of it could be read: an entry of nothing manages nothing. */
function readAnything(repo: { entry: Record<string, unknown>; failed: Set<string> }) {
  const settings = REPOSITORY_KINDS.some(
    (kind) => repo.entry[kind.repository.setting.key] !== undefined,
  );
  return settings || repo.failed.size === 0 ? [repo.entry] : [];
}

/** Sets `value` at a dotted section path ("audits.migrations"), creating the mappings on the way. */
function placeAt(document: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    document[head] = value;
    return;
  }
  const inner = (document[head] ??= {}) as Record<string, unknown>;
  placeAt(inner, rest, value);
}
