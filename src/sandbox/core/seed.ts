import * as z from "zod";

/**
 * The seed format as the areas describe it. A seed is an object of top-level lists (`users`,
 * `repositories`, `groups` …); an area's slice names the fields it adds to the entries of some of
 * them (the labels area adds `labels` to each entry of `repositories`). The format is every area's
 * slice together: `composeSeedSchema` makes the one schema a seed file is checked against, and
 * `mergeSeeds` puts the areas' parts of a seed value (the demo world) together, entry by entry.
 */

/** Fields many areas' entries have: an account's login, and a time as written in a seed. */
export const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "expected a login");
export const timestamp = z.iso.datetime({
  message: "expected a date-time like 2026-01-05T10:00:00Z",
});
/** When the seed says nothing of a record's time: the world's beginning. */
export const SEEDED_AT = "2026-01-02T09:00:00Z";

/** Math.max without spreading, so worlds of many thousands of records stay within the stack. */
export function maxOf(values: Iterable<number>): number {
  let max = 0;
  for (const value of values) if (value > max) max = value;
  return max;
}

/** A seed that cannot be used, with a one-line message naming the file, line and key. */
export class SeedError extends Error {
  override name = "SeedError";
}

/** Where in the seed a value is: keys and indices from the top. */
export type SeedPath = (string | number)[];

/** A seed that parses but does not make sense (a dangling login, a duplicate id), with where it is. */
export class SeedProblem extends Error {
  constructor(
    readonly path: SeedPath,
    message: string,
  ) {
    super(message);
  }
}

export function check(condition: boolean, path: SeedPath, message: string): asserts condition {
  if (!condition) throw new SeedProblem(path, message);
}

export function fail(path: SeedPath, message: string): never {
  throw new SeedProblem(path, message);
}

/** The fields an area adds to the entries of one list. */
export type Fields = z.core.$ZodShape;

/** What an area adds to the seed format: fields of the entries of top-level lists, by list. */
export type SeedSlice = Readonly<Record<string, Fields>>;

type Entry<F extends Fields> = z.output<z.ZodObject<F, z.core.$strict>>;
type EntryInput<F extends Fields> = z.input<z.ZodObject<F, z.core.$strict>>;

/** An area's view of a checked seed: the lists of its slice, each entry with the area's fields. */
export type SeedView<S extends SeedSlice> = { readonly [L in keyof S]: ReadonlyArray<Entry<S[L]>> };

/**
 * An area's part of a seed as written: entries with its fields, and whatever other fields identify
 * the entry they belong to (`{full_name: "acme/api", labels: […]}`).
 */
export type SeedPart<S extends SeedSlice> = {
  [L in keyof S]?: Array<EntryInput<S[L]> & Record<string, unknown>>;
};

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;
type Flatten<T> = { [K in keyof T]: T[K] };
type ListsOf<S> = S extends unknown ? keyof S : never;
type FieldsOf<S, L extends PropertyKey> = Flatten<
  UnionToIntersection<S extends unknown ? (L extends keyof S ? S[L] : never) : never>
>;

/** The schema of the seed that the slices `S` (a union) make together. */
export type ComposedSchema<S extends SeedSlice> = z.ZodObject<
  {
    [L in ListsOf<S> & string]: z.ZodDefault<
      z.ZodArray<
        FieldsOf<S, L> extends infer F extends Fields ? z.ZodObject<F, z.core.$strict> : never
      >
    >;
  },
  z.core.$strict
>;

function described(schema: z.core.$ZodType): string {
  return JSON.stringify(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
}

/**
 * The schema of a seed: each list an array (empty when left out) of strict entries with every
 * field an area adds to it, lists and fields in the order the areas name them. Two areas may
 * describe one field (both services' worlds read `users[].login`) only alike; the first one's
 * messages are kept.
 */
export function composeSeedSchema<S extends SeedSlice>(slices: readonly S[]): ComposedSchema<S> {
  const lists = new Map<string, Record<string, z.core.$ZodType>>();
  for (const slice of slices) {
    for (const [list, fields] of Object.entries(slice)) {
      const merged = lists.get(list) ?? {};
      for (const [key, schema] of Object.entries(fields)) {
        const known = merged[key];
        if (known !== undefined && described(known) !== described(schema)) {
          throw new Error(`seed format: ${list}[].${key} is described twice, differently`);
        }
        merged[key] ??= schema;
      }
      lists.set(list, merged);
    }
  }
  const shape = Object.fromEntries(
    [...lists].map(([list, fields]) => [list, z.array(z.strictObject(fields)).default([])]),
  );
  return z.strictObject(shape) as unknown as ComposedSchema<S>;
}

/**
 * Puts parts of a seed together: each list's entries in the order they first appear, an entry
 * that names the same `keys[list]` as an earlier one merged into it (its fields added), and
 * entries of lists without a key appended.
 */
export function mergeSeeds(
  parts: ReadonlyArray<Record<string, ReadonlyArray<Record<string, unknown>> | undefined>>,
  keys: Readonly<Record<string, string>>,
): Record<string, Record<string, unknown>[]> {
  const merged: Record<string, Record<string, unknown>[]> = {};
  const byKey = new Map<string, Record<string, unknown>>();
  for (const part of parts) {
    for (const [list, entries] of Object.entries(part)) {
      const into = (merged[list] ??= []);
      const key = keys[list];
      for (const entry of entries ?? []) {
        const id = key === undefined ? undefined : `${list}\u0000${String(entry[key])}`;
        const earlier = id === undefined ? undefined : byKey.get(id);
        if (earlier !== undefined) {
          Object.assign(earlier, entry);
          continue;
        }
        const copy = { ...entry };
        into.push(copy);
        if (id !== undefined) byKey.set(id, copy);
      }
    }
  }
  return merged;
}
