/**
 * GitLab's protection access levels as protected branches and protected tags share them
 * (ProtectedRefAccess): who may push, merge, unprotect or create — a role, a user, a group or a
 * deploy key — written by name, read by id. Both kinds' entries are planned here: the written
 * form, the shape GitLab answers, the names resolved to ids at plan time (an unknown user or group
 * is an error then, not a 422 at apply), and the PATCH items that turn one list into another
 * without piling up entries (gitlab-org/gitlab#551595).
 */
import * as z from "zod";
import { closed } from "../config/fields.js";
import type { ChangeError } from "../core/plan.js";
import { changeError, type ResourceReader } from "./context.js";
import { groupPath } from "./gitlab-paths.js";

/**
 * The role levels a protection takes, by name: "0: No access, 30: Developer role, 40: Maintainer
 * role, 60: Administrator" (docs, "Protected branches API", "Valid access levels"); protected tags
 * take 0, 30 and 40 ("Protected tags API").
 */
export const BRANCH_LEVELS = { no_one: 0, developer: 30, maintainer: 40, admin: 60 } as const;
export const TAG_LEVELS = { no_one: 0, developer: 30, maintainer: 40 } as const;
export type Levels = Readonly<Record<string, number>>;

/** One entry as written: a role by name or number, `{user}`, `{group}` or `{deploy_key}`. */
export type WrittenEntry =
  string | number | { user: string } | { group: string } | { deploy_key: number };

/** The schema of one list of entries (`push`, `merge`, `unprotect`, `create`). */
export function accessList(levels: Levels, what: string, deployKeys: boolean) {
  const names = Object.keys(levels) as [string, ...string[]];
  const numbers = Object.values(levels);
  const entry = z.union([
    z.enum(names),
    z
      .number()
      .int()
      .refine((level) => numbers.includes(level), {
        error: `a level is one of ${numbers.join(", ")} (${names.join(", ")})`,
      }),
    closed({ user: z.string().min(1).describe("A user, by username.") }),
    closed({ group: z.string().min(1).describe("A group, by full path.") }),
    ...(deployKeys
      ? [closed({ deploy_key: z.int().positive().describe("A deploy key, by id.") })]
      : []),
  ]);
  return z
    .array(entry)
    .min(1)
    .refine((list) => new Set(list.map((item) => writtenKey(levels, item))).size === list.length, {
      error: "an entry is listed twice",
    })
    .describe(
      `Who ${what}: roles (${names.join(", ")}, or ${numbers.join(", ")})${deployKeys ? ", {deploy_key: id}" : ""}, {user: username} and {group: full/path} (users and groups on Premium).`,
    );
}

/** The name of a role level (`40` → `maintainer`); the number itself when it has none. */
export function levelName(levels: Levels, level: number): string {
  return Object.entries(levels).find(([, value]) => value === level)?.[0] ?? String(level);
}

/** A written entry as it is compared before names are resolved (`maintainer`, `user:Octo`). */
export function writtenKey(levels: Levels, entry: WrittenEntry): string {
  if (typeof entry === "number") return levelName(levels, entry);
  if (typeof entry === "string") return entry;
  if ("user" in entry) return `user:${entry.user.toLowerCase()}`;
  if ("group" in entry) return `group:${entry.group.toLowerCase()}`;
  return `deploy_key:${entry.deploy_key}`;
}

/** An entry as the configuration writes it, from its shown name (`user:octo-dev` → `{user}`). */
export function writtenEntry(shown: string): WrittenEntry {
  const colon = shown.indexOf(":");
  if (colon < 0) return /^\d+$/.test(shown) ? Number(shown) : shown;
  const kind = shown.slice(0, colon);
  const rest = shown.slice(colon + 1);
  if (kind === "user") return { user: rest };
  if (kind === "group") return { group: rest };
  return { deploy_key: Number(rest) };
}

/** One entry of GitLab's answer (`push_access_levels[]` …). */
export const liveEntry = z.looseObject({
  id: z.number().int(),
  access_level: z.number().int().nullable().optional(),
  user_id: z.number().int().nullable().optional(),
  group_id: z.number().int().nullable().optional(),
  deploy_key_id: z.number().int().nullable().optional(),
});
export type LiveEntry = z.infer<typeof liveEntry>;

/**
 * An entry resolved: how it is shown and compared (`maintainer`, `user:octo-dev`,
 * `group:acme/platform`, `deploy_key:1`) and the item a write names it by.
 */
export interface Resolved {
  shown: string;
  item: Record<string, number>;
}

export interface ResolvedLive extends Resolved {
  id: number;
}

/**
 * Whether GitLab answered as Premium or above: "Users on GitLab Premium or Ultimate also see the
 * user_id, group_id" on every entry (docs, "Protected branches API"), a role's too (`null`); a
 * role's entry without them is Free's. Undefined when there is no entry to tell.
 */
export function premiumShown(entries: readonly LiveEntry[]): boolean | undefined {
  if (entries.length === 0) return undefined;
  return entries.every((entry) => "user_id" in entry || "group_id" in entry);
}

const userShape = {
  name: "a user",
  schema: z.looseObject({ id: z.number().int(), username: z.string() }),
};
const groupShape = {
  name: "a group",
  schema: z.looseObject({ id: z.number().int(), full_path: z.string() }),
};

type Found<T> = { ok: true; value: T } | { ok: false; error: ChangeError };

/**
 * Users and groups named in protections, each read once per plan of a project: usernames by
 * "List users" `?username=` (GitLab matches it ignoring case), ids by "Get a single user" and
 * "Get a single group".
 */
export class GitlabNames {
  readonly #reads = new Map<string, Promise<Found<{ id: number; name: string }>>>();

  constructor(private readonly reader: ResourceReader) {}

  #once(key: string, read: () => Promise<Found<{ id: number; name: string }>>) {
    let found = this.#reads.get(key);
    if (found === undefined) {
      found = read();
      this.#reads.set(key, found);
      // What a name resolved to answers the read by id too, so a live entry of it costs nothing.
      const byId = key.startsWith("user:") ? "user#" : key.startsWith("group:") ? "group:" : "";
      if (byId !== "") {
        void found.then((one) => {
          if (one.ok && !this.#reads.has(`${byId}${one.value.id}`))
            this.#reads.set(`${byId}${one.value.id}`, Promise.resolve(one));
        });
      }
    }
    return found;
  }

  user(username: string) {
    return this.#once(`user:${username.toLowerCase()}`, async () => {
      const path = "/api/v4/users";
      const listed = await this.reader.list(path, { username }, userShape);
      if (listed.kind === "error") return { ok: false, error: listed.error };
      const user =
        listed.kind === "found"
          ? listed.data.find((one) => one.username.toLowerCase() === username.toLowerCase())
          : undefined;
      if (user === undefined) {
        return {
          ok: false,
          error: changeError(
            `user '${username}' does not exist on ${this.reader.target}`,
            "GET",
            `${path}?username=${encodeURIComponent(username)}`,
            200,
          ),
        };
      }
      return { ok: true, value: { id: user.id, name: user.username } };
    });
  }

  userById(id: number) {
    return this.#once(`user#${id}`, async () => {
      const path = `/api/v4/users/${id}`;
      const read = await this.reader.getOrAbsent(path, userShape);
      if (read.kind === "error") return { ok: false, error: read.error };
      if (read.kind === "absent") return { ok: true, value: { id, name: `#${id}` } };
      return { ok: true, value: { id, name: read.data.username } };
    });
  }

  group(pathOrId: string | number) {
    return this.#once(`group:${String(pathOrId).toLowerCase()}`, async () => {
      const path = groupPath(pathOrId);
      const read = await this.reader.getOrAbsent(path, groupShape);
      if (read.kind === "error") return { ok: false, error: read.error };
      if (read.kind === "absent") {
        if (typeof pathOrId === "number")
          return { ok: true, value: { id: pathOrId, name: `#${pathOrId}` } };
        return {
          ok: false,
          error: changeError(
            `group '${pathOrId}' does not exist on ${this.reader.target} (or ${this.reader.credential} cannot see it)`,
            "GET",
            path,
            404,
          ),
        };
      }
      return { ok: true, value: { id: read.data.id, name: read.data.full_path } };
    });
  }
}

/** Entries written, resolved to what GitLab is sent; the first unknown name is an error. */
export async function resolveWritten(
  names: GitlabNames,
  levels: Levels,
  entries: readonly WrittenEntry[],
  field: ReadonlyArray<string | number>,
): Promise<Found<Resolved[]>> {
  const resolved: Resolved[] = [];
  for (const [index, entry] of entries.entries()) {
    if (typeof entry === "number" || typeof entry === "string") {
      const level = typeof entry === "number" ? entry : levels[entry]!;
      resolved.push({ shown: levelName(levels, level), item: { access_level: level } });
      continue;
    }
    if ("deploy_key" in entry) {
      resolved.push({
        shown: `deploy_key:${entry.deploy_key}`,
        item: { deploy_key_id: entry.deploy_key },
      });
      continue;
    }
    const found = "user" in entry ? await names.user(entry.user) : await names.group(entry.group);
    if (!found.ok) return { ok: false, error: { ...found.error, field: [...field, index] } };
    const kind = "user" in entry ? "user" : "group";
    resolved.push({
      shown: `${kind}:${found.value.name}`,
      item: { [`${kind}_id`]: found.value.id },
    });
  }
  return { ok: true, value: resolved };
}

/** GitLab's entries, named as written ones are (a user's entry is the user's, whatever its level). */
export async function resolveLive(
  names: GitlabNames,
  levels: Levels,
  entries: readonly LiveEntry[],
): Promise<Found<ResolvedLive[]>> {
  const resolved: ResolvedLive[] = [];
  for (const entry of entries) {
    if (typeof entry.user_id === "number" || typeof entry.group_id === "number") {
      const user = typeof entry.user_id === "number";
      const found = user
        ? await names.userById(entry.user_id!)
        : await names.group(entry.group_id!);
      if (!found.ok) return found;
      const kind = user ? "user" : "group";
      resolved.push({
        id: entry.id,
        shown: `${kind}:${found.value.name}`,
        item: { [`${kind}_id`]: found.value.id },
      });
    } else if (typeof entry.deploy_key_id === "number") {
      resolved.push({
        id: entry.id,
        shown: `deploy_key:${entry.deploy_key_id}`,
        item: { deploy_key_id: entry.deploy_key_id },
      });
    } else if (typeof entry.access_level !== "number") {
      return {
        ok: false,
        error: changeError(
          `GitLab answered access level entry ${entry.id} naming no role, user, group or deploy key`,
        ),
      };
    } else {
      const level = entry.access_level;
      resolved.push({
        id: entry.id,
        shown: levelName(levels, level),
        item: { access_level: level },
      });
    }
  }
  return { ok: true, value: resolved };
}

/** A list as it is compared and shown: its entries' names, sorted. */
export function shownList(list: readonly Resolved[]): string[] {
  return list.map((entry) => entry.shown).sort();
}

/**
 * The items of one PATCH array that turn the live list into the desired one: each live entry the
 * desired list keeps stays as it is (the first of its name; a second of the same name is
 * destroyed), every other live entry is destroyed by its id, and each desired entry not live is
 * added without an id. Nothing is sent for what stays, so entries never pile up: live `[No one,
 * Maintainers]` and desired `[maintainer]` is one `{id, _destroy: true}` (gitlab-org/gitlab#551595
 * shows a PATCH that re-sends entries adding contradictory levels).
 */
export function patchItems(
  live: readonly ResolvedLive[],
  desired: readonly Resolved[],
): Array<Record<string, unknown>> {
  const wanted = new Set(desired.map((entry) => entry.shown));
  const kept = new Set<string>();
  const destroyed: Array<Record<string, unknown>> = [];
  for (const entry of live) {
    if (wanted.has(entry.shown) && !kept.has(entry.shown)) kept.add(entry.shown);
    else destroyed.push({ id: entry.id, _destroy: true });
  }
  const added = desired.filter((entry) => !kept.has(entry.shown)).map((entry) => entry.item);
  return [...destroyed, ...added];
}

/** Whether an answer's entry is the one an item names (by user, group, deploy key or level). */
function sameEntry(item: Record<string, unknown>, entry: LiveEntry): boolean {
  if (typeof item.user_id === "number") return entry.user_id === item.user_id;
  if (typeof item.group_id === "number") return entry.group_id === item.group_id;
  if (typeof item.deploy_key_id === "number") return entry.deploy_key_id === item.deploy_key_id;
  return (
    typeof entry.user_id !== "number" &&
    typeof entry.group_id !== "number" &&
    typeof entry.deploy_key_id !== "number" &&
    entry.access_level === item.access_level
  );
}

/**
 * What an answer's list did not keep of the items a write sent: an item added that is not there,
 * an id destroyed that still is (each as it was sent).
 */
export function unkept(
  items: ReadonlyArray<Record<string, unknown>>,
  entries: readonly LiveEntry[],
): Array<Record<string, unknown>> {
  return items.filter((item) =>
    item._destroy === true
      ? entries.some((entry) => entry.id === item.id)
      : !entries.some((entry) => sameEntry(item, entry)),
  );
}
