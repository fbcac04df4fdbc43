import { type ResourceReader, ReadFailed } from "../resources/context.js";
import { OWNER_KINDS } from "../resources/index.js";

/** What export shares across scopes: reading a part so a failure leaves out that part only. */

export interface ExportComment {
  text: string;
  /** The owner whose repositories the comment is about, so a file per owner can carry it. */
  owner?: string;
}

export class ExportError extends Error {}

/** The parts of an export that could not be read, as the comments that name them. */
export type Unread = ExportComment[];

/**
 * Runs a read; a failed one is recorded as one line that says what could not be read (and why),
 * and gives undefined, so the rest of the export goes on.
 */
export async function reading<T>(
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

/** The key that names an owner in its entry: the instance's entry names its target instead. */
const NAME_KEY = { organization: "name", group: "group", instance: "target" } as const;

/**
 * An organization's (a group's, a GitLab instance's) entry, kind by kind: a kind that could not be
 * read is left out and named, the rest is written, with the comments clean-ups write in place of
 * values. When nothing could be read, the owner is one line of its own; an entry of nothing but its
 * name is left out. The instance's `owner` is its scope, `(instance)`, and its entry names the target.
 */
export async function exportOwner(
  scope: keyof typeof NAME_KEY,
  reader: ResourceReader,
  owner: string,
  unread: Unread,
): Promise<{ entries: Array<Record<string, unknown>>; comments: string[] }> {
  const nameKey = NAME_KEY[scope];
  const numeric = scope === "group" && /^[0-9]+$/.test(owner);
  const named = scope === "instance" ? reader.target : numeric ? Number(owner) : owner;
  const entry: Record<string, unknown> = { [nameKey]: named };
  const whose =
    scope === "instance" ? `the instance of target ${reader.target}` : `${scope} ${owner}`;
  // An organization's entry travels with its owner's file (--out DIR/); a group's has none.
  const file = scope === "organization" ? owner : undefined;
  const failures: Unread = [];
  const comments: string[] = [];
  let anything = false;
  for (const { part } of OWNER_KINDS[scope]) {
    if (part.export === undefined && part.comments === undefined) continue;
    const key = part.setting.key;
    const result = await reading(`the ${key} of ${whose}`, file, failures, async () => ({
      value: await part.export?.(reader, owner),
      comments: (await part.comments?.(reader, owner)) ?? [],
    }));
    if (!result.read) continue;
    anything = true;
    comments.push(...result.value.comments);
    if (result.value.value !== undefined) entry[key] = result.value.value;
  }
  if (!anything && failures.length > 0) {
    unread.push({
      text: `not exported: ${whose}: ${reasonOf(failures[0]!)}`,
      ...(file ? { owner: file } : {}),
    });
    return { entries: [], comments };
  }
  unread.push(...failures);
  return { entries: Object.keys(entry).length > 1 ? [entry] : [], comments };
}

/** The error a "not exported: what: error" line gives. */
function reasonOf(comment: ExportComment): string {
  const [, , ...rest] = comment.text.split(": ");
  return rest.join(": ");
}
