import * as z from "zod";

/** An issue as a schema raises it, before zod words it (no `message` unless the schema gave one). */
export type RawIssue = z.core.$ZodRawIssue;

/** What zod's own safeParse gives a schema it runs (the loader parses without options). */
export const PARSE_CONTEXT: z.core.ParseContextInternal<z.core.$ZodIssue> = { async: false };

/**
 * The issues of checking `value` against `schema`, as `safeParse` finds them but not yet worded.
 * zod words every issue of a failed parse (its message, a copy of the issue without its input),
 * and a file built to fail has hundreds of thousands, of which the loader shows the first 100:
 * `wordIssue` words one when its message is read. `_zod.run` is what safeParse itself calls
 * (zod 4.6, core/parse.js); test/config/written-keys.test.ts and the error tests fail if a release
 * changes what it gives.
 */
export function rawIssues(schema: z.ZodType, value: unknown): RawIssue[] {
  const result = schema._zod.run({ value, issues: [] }, PARSE_CONTEXT);
  if (result instanceof Promise) throw new Error("the configuration schema has an async check");
  return result.issues as RawIssue[];
}

/** An issue as safeParse would have worded it. */
export function wordIssue(issue: RawIssue): z.core.$ZodIssue {
  return z.core.util.finalizeIssue(issue, PARSE_CONTEXT, z.core.config());
}

/** The issues raised in place of errors counted and not kept, and how many each stands for. */
const notKept = new WeakMap<object, number>();

/**
 * An issue that stands for `errors` errors found and counted but not kept: a long list's entries
 * past its first problems (`listCheckedByWrittenKeys` says when). It makes no error of its own;
 * the loader adds its count to the problems it reports. Known by identity, which zod keeps as
 * it prefixes paths, so no issue a schema raises can be taken for one.
 */
export function notKeptIssue(errors: number): RawIssue {
  const issue: RawIssue = { code: "custom", input: undefined, message: "errors not kept" };
  notKept.set(issue, errors);
  return issue;
}

/** How many errors `issue` stands for when it is a `notKeptIssue`, else 0. */
export function errorsNotKept(issue: object): number {
  return notKept.get(issue) ?? 0;
}
