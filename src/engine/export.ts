import { type ResourceReader, ReadFailed } from "../resources/context.js";
import { REPOSITORY_KINDS, sectionKind } from "../resources/index.js";

/**
 * Builds desired-state YAML data from live state, kind by kind: what it returns validates and plans
 * as no-op against the same live state.
 */
export interface ExportRequest {
  repos: string[];
  /** Ids to export per section ("projects": project ids or paths …). */
  sections: ReadonlyMap<string, readonly string[]>;
}

export interface ExportedState {
  document: Record<string, unknown>;
  /** Facts worth a comment in the YAML (existing boards and links a clean-up could name). */
  comments: string[];
}

export class ExportError extends Error {}

/** Runs a read, turning a failed one into one line that says what could not be read. */
async function reading<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ReadFailed) throw new ExportError(`cannot read ${what}: ${error.message}`);
    throw error;
  }
}

async function exportRepo(reader: ResourceReader, fullName: string) {
  const [owner, name, extra] = fullName.split("/");
  if (!owner || !name || extra !== undefined) {
    throw new ExportError(`--repo expects OWNER/REPO, got '${fullName}'`);
  }
  const repo = { owner, name };
  const entry: Record<string, unknown> = { name: fullName, target: reader.target };
  for (const kind of REPOSITORY_KINDS) {
    const exported = kind.repository.export;
    if (exported === undefined) continue;
    const value = await reading(`the ${kind.name} settings of ${fullName}`, () =>
      exported(reader, repo),
    );
    if (value !== undefined) entry[kind.repository.setting.key] = value;
  }
  return entry;
}

export async function exportState(
  request: ExportRequest,
  readerOf: (targetType: "repository" | "planning") => ResourceReader | undefined,
): Promise<ExportedState> {
  const document: Record<string, unknown> = { version: 1 };
  const comments: string[] = [];
  if (request.repos.length > 0) {
    const reader = readerOf("repository");
    if (!reader) throw new ExportError("no repository target to export from");
    document.repositories = await Promise.all(
      request.repos.map((name) => exportRepo(reader, name)),
    );
  }
  for (const [section, ids] of request.sections) {
    const kind = sectionKind(section);
    const exported = kind?.section.export;
    if (kind === undefined || exported === undefined) {
      throw new ExportError(`nothing exports the section ${section}`);
    }
    const reader = readerOf(kind.section.spec.targetType);
    if (!reader) {
      throw new ExportError(`no ${kind.section.spec.targetType} target to export from`);
    }
    const entries: unknown[] = [];
    for (const id of ids) {
      const result = await reading(`the ${section} entry ${id}`, () => exported(reader, id));
      entries.push(...result.entries);
      comments.push(...result.comments);
    }
    if (entries.length > 0) placeAt(document, section.split("."), entries);
  }
  return { document, comments };
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
