import * as z from "zod";
import { type GitlabReadBudget, leastTime, type ReadBudget } from "./budget.js";
import { ACTIONS, type Change, GATES, makePlan, type Plan, STEPS, summarize } from "./plan.js";
import { isPlainObject } from "./plain.js";
import { SENSITIVE } from "./secret.js";
import { firstProblem } from "./zod-problem.js";

/**
 * The plan file (`plan --out`, `--format json`): the only code that writes and reads it. Writing
 * orders keys so the same plan always prints the same bytes; reading validates the whole file and
 * trusts nothing that can be recomputed from the changes.
 */

/** A plan file that cannot be used, with a one-line reason that names the file. */
export class PlanFileError extends Error {
  override name = "PlanFileError";
}

// Keys a newer engine adds that are not listed here follow the known ones in their own order.
const PLAN_KEYS = ["format_version", "partial", "changes", "summary", "errors", "budget"];
const CHANGE_KEYS = [
  "address",
  "kind",
  "action",
  "target",
  "scope",
  "name",
  "diff",
  "requests",
  "findings",
  "notes",
  "live_fingerprint",
  "removal",
  "step",
  "gate",
  "not_applied",
  "error",
];
const DIFF_KEYS = ["path", "before", "after", "sensitive", "preexisting"];
const PARTIAL_KEYS = ["changed_from", "unchanged", "unlisted", "no_longer_managed"];
const REQUEST_KEYS = ["method", "path", "body", "expect"];
const ERROR_KEYS = ["written", "message", "request", "status"];
const SUMMARY_KEYS = ["create", "update", "delete", "report", "no-op"];
const BUDGET_KEYS = [
  "rest_requests",
  "from_cache",
  "busiest_endpoint",
  "graphql_queries",
  "graphql_points",
  "rest_limit",
  "graphql_limit",
];

export function ordered(value: unknown, keys: readonly string[]): unknown {
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const key of keys) if (key in value) result[key] = value[key];
  for (const key of Object.keys(value)) if (!(key in result)) result[key] = value[key];
  return result;
}

function list(value: unknown, each: (item: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(each) : value;
}

/**
 * Plain JSON data: `Secret`s become "(sensitive)" (their toJSON), undefined members go. A sensitive
 * diff entry keeps which sides exist (added, removed, changed) but never their values.
 */
function plainData(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value) ?? "null") as unknown;
}

function diffEntry(value: unknown): unknown {
  const entry = ordered(value, DIFF_KEYS);
  if (isPlainObject(entry) && entry.sensitive === true) {
    if (entry.before !== undefined) entry.before = SENSITIVE;
    if (entry.after !== undefined) entry.after = SENSITIVE;
  }
  return entry;
}

/**
 * A change in the file's key order, for JSON.stringify. Only what the file orders is copied (the
 * change, its diff entries, its requests, its error); the rest stays the change's own, which
 * JSON.stringify makes plain as it writes, as plainData would have first (a `Secret` reads
 * "(sensitive)", an undefined member goes). Made plain first, each change of a plan's objects was
 * stringified and parsed once more: the 4,000 changes of bench/plan-1k.js printed in 71–117 ms
 * then, 65–75 ms now (twelve alternated plans).
 */
function changeJson(value: unknown): unknown {
  const result = ordered(value, CHANGE_KEYS);
  if (!isPlainObject(result)) return result;
  if (result.diff !== undefined) result.diff = list(result.diff, diffEntry);
  if (result.requests !== undefined) {
    result.requests = list(result.requests, (r) => ordered(r, REQUEST_KEYS));
  }
  if (result.error !== undefined) result.error = ordered(result.error, ERROR_KEYS);
  return result;
}

/** A whole plan (or a plan inside an apply report) as the file's ordered data. */
export function planData(value: unknown): unknown {
  const result = ordered(plainData(value), PLAN_KEYS);
  if (!isPlainObject(result)) return result;
  if ("changes" in result) result.changes = list(result.changes, changeJson);
  if ("summary" in result) result.summary = ordered(result.summary, SUMMARY_KEYS);
  if ("partial" in result) result.partial = ordered(result.partial, PARTIAL_KEYS);
  if ("budget" in result) result.budget = budgetData(result.budget);
  return result;
}

/** The budget's counts, and the least time they take at the service's limits (recomputed on read). */
function budgetData(value: unknown): unknown {
  const counts = ordered(value, BUDGET_KEYS);
  if (!isPlainObject(counts)) return counts;
  const { least_time: _stored, ...rest } = counts;
  const least = leastTime(rest as unknown as ReadBudget);
  // A least time in hundredths of a minute, rounded up as the text rounds it: never 0.5399999999999999.
  return {
    ...rest,
    least_time: { ...least, minutes: Math.ceil(least.minutes * 100 - 1e-9) / 100 },
  };
}

function stringify(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

const CHANGES_SLOT = '"changes": []';

/** Around values stringified two lists deep: `[\n  [\n` before them, `\n  ]\n]` after. */
const TWO_DEEP = 6;

/** How many changes are stringified in one call: each call has a cost of its own. */
const CHANGES_AT_ONCE = 64;

/**
 * `values`' JSON with a 2-space indent, every line indented by 4 more, one after the other with
 * ",\n" between: where changes stand in the file. Stringified two lists deep, as JSON.stringify
 * indents them there; a regular expression indenting each line took half of writing a plan of
 * 4,000 changes. Stringified 64 at a time, those 4,000 took about 10 ms where one call each took
 * 16–18 ms (a loop over bench/plan-1k.js's plan, warmed).
 */
function indentedTwice(values: readonly unknown[]): string {
  return JSON.stringify([values], null, 2).slice(TWO_DEEP, -TWO_DEEP);
}

/**
 * The plan's JSON in pieces, CHANGES_AT_ONCE changes at a time, so a plan of tens of thousands of
 * changes is never held as one string. Joined, the pieces are the same bytes as `JSON.stringify`
 * of the whole plan with a 2-space indent.
 */
export function* planFileChunks(input: Plan): Generator<string> {
  const frame = stringify(planData({ ...input, changes: [] }));
  const slot = frame.indexOf(CHANGES_SLOT);
  if (input.changes.length === 0 || slot < 0) {
    yield frame;
    return;
  }
  yield `${frame.slice(0, slot)}"changes": [\n`;
  for (let start = 0; start < input.changes.length; start += CHANGES_AT_ONCE) {
    const text = indentedTwice(input.changes.slice(start, start + CHANGES_AT_ONCE).map(changeJson));
    yield start === 0 ? text : `,\n${text}`;
  }
  yield `\n  ]${frame.slice(slot + CHANGES_SLOT.length)}`;
}

export function planFileText(input: Plan): string {
  return [...planFileChunks(input)].join("");
}

const count = z.number().int().nonnegative();

function fileSchema(kinds: readonly string[]) {
  const request = z.looseObject({
    method: z.enum(["GET", "PUT", "PATCH", "POST", "DELETE"]),
    path: z.string().startsWith("/", { error: 'expected a path starting with "/"' }),
    body: z.unknown().optional(),
    expect: z.unknown().optional(),
  });
  const change = z.looseObject({
    address: z.string().min(1),
    kind: z.string().refine((kind) => kinds.includes(kind), {
      error: (issue) => `unknown kind '${String(issue.input)}'`,
    }),
    action: z.enum(ACTIONS),
    target: z.string().min(1),
    scope: z.string(),
    name: z.string(),
    diff: z.array(z.looseObject({ path: z.string(), preexisting: z.literal(true).optional() })),
    requests: z.array(request),
    findings: z.array(z.string()).optional(),
    notes: z.array(z.string()).optional(),
    live_fingerprint: z.string().optional(),
    held: z.string().optional(),
    removal: z
      .strictObject({
        collection: z.string().min(1),
        live: count,
        count: count.optional(),
        members: z.string().optional(),
      })
      .optional(),
    step: z.enum(STEPS).optional(),
    gate: z.enum(GATES).optional(),
    not_applied: z.literal("archived").optional(),
    capped: z
      .strictObject({
        by: z.enum(["collection", "plan"]),
        count,
        live: count.optional(),
        allowed: count,
        members: z.string().optional(),
      })
      .optional(),
    error: z
      .looseObject({
        message: z.string(),
        request: z.string().optional(),
        status: z.number().optional(),
        written: z.string().optional(),
      })
      .optional(),
  });
  return z.looseObject({
    format_version: z.literal(1),
    changes: z.array(change),
    summary: z.strictObject({
      create: count,
      update: count,
      delete: count,
      report: count,
      "no-op": count,
    }),
    errors: count.optional(),
    config: z.array(z.string().min(1)).min(1).optional(),
    rotate_secrets: z.literal(true).optional(),
    rotate_secret: z.array(z.string().min(1)).min(1).optional(),
    shard: z
      .strictObject({ index: count.min(1), count: count.min(1) })
      .refine((shard) => shard.index <= shard.count, { error: "expected index ≤ count" })
      .optional(),
    targets: z.array(z.string().min(1)).min(1).optional(),
    budget: z
      .looseObject({
        rest_requests: count,
        from_cache: count,
        busiest_endpoint: count,
        graphql_queries: count,
        graphql_points: count,
        rest_limit: count.min(1),
        graphql_limit: count.min(1),
        gitlab: z
          .looseObject({
            limits: z.enum(["gitlab.com", "none"]),
            rest_requests: count,
            from_cache: count,
            without_validator: count,
            requests_by_endpoint_group: z.record(z.string(), count),
            endpoint_limits: z.record(
              z.string(),
              z.strictObject({
                limit: count.min(1),
                window_seconds: count.min(1),
                per_record: z.literal(true).optional(),
              }),
            ),
            graphql_queries: count,
            graphql_complexity: count,
          })
          .optional(),
      })
      .optional(),
    removal_limit: z
      .strictObject({ share: z.number().min(0).max(100).optional(), deletes: count.optional() })
      .optional(),
    partial: z
      .strictObject({
        changed_from: z.string().min(1),
        unchanged: count,
        unlisted: z.array(z.string()),
        no_longer_managed: z.array(z.string()),
      })
      .optional(),
  });
}

/**
 * Reads a plan file. Anything that is not such a plan is refused with one line naming the file and
 * the first key that is wrong; so is a plan whose summary does not count its own changes (a hand-
 * edited summary must never make apply say "nothing to apply") or that lists an address twice (its
 * change would be sent twice). `kinds` are the kinds this forgeplan knows.
 */
export function readPlanFile(text: string, file: string, kinds: readonly string[]): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the fault as it is, newlines included; the CLI shows
    // them escaped, so the quote stays whole on one line.
    const reason = error instanceof Error ? error.message : String(error);
    throw new PlanFileError(`${file} is not valid JSON: ${reason}`);
  }
  if (!isPlainObject(value)) {
    throw new PlanFileError(`${file} is not a forgeplan plan (expected a JSON object)`);
  }
  if (value.format_version === undefined) {
    throw new PlanFileError(
      `${file} is not a forgeplan plan (expected format_version 1 and a changes list)`,
    );
  }
  if (value.format_version !== 1) {
    throw new PlanFileError(
      `${file} has format_version ${JSON.stringify(value.format_version)}; this forgeplan reads format_version 1`,
    );
  }
  const parsed = fileSchema(kinds).safeParse(value);
  if (!parsed.success) {
    throw new PlanFileError(`${file}: ${firstProblem(parsed.error)}`);
  }
  const changes = parsed.data.changes as Change[];
  const seen = new Set<string>();
  for (const [index, change] of changes.entries()) {
    if (seen.has(change.address)) {
      throw new PlanFileError(
        `${file}: changes[${index}]: ${change.address} is listed twice; a plan holds each change once`,
      );
    }
    seen.add(change.address);
  }
  const plan = makePlan(changes);
  const stored = parsed.data.summary;
  const counted = summarize(changes);
  const differs = (Object.keys(counted) as Array<keyof typeof counted>).filter(
    (action) => stored[action] !== counted[action],
  );
  if (differs.length > 0) {
    const detail = differs.map((action) => `${action} ${stored[action]} ≠ ${counted[action]}`);
    throw new PlanFileError(
      `${file}: summary does not match its changes (${detail.join(", ")}); the file was edited or damaged`,
    );
  }
  return {
    ...plan,
    ...(parsed.data.config ? { config: parsed.data.config } : {}),
    ...(parsed.data.rotate_secrets ? { rotate_secrets: true } : {}),
    ...(parsed.data.rotate_secret ? { rotate_secret: parsed.data.rotate_secret } : {}),
    ...(parsed.data.shard ? { shard: parsed.data.shard } : {}),
    ...(parsed.data.targets ? { targets: parsed.data.targets } : {}),
    ...(parsed.data.removal_limit ? { removal_limit: parsed.data.removal_limit } : {}),
    ...(parsed.data.partial ? { partial: parsed.data.partial } : {}),
    ...(parsed.data.budget ? { budget: budgetOf(parsed.data.budget) } : {}),
  };
}

/** The counts of a stored budget; what they take in time is recomputed, never trusted. */
function budgetOf(stored: ReadBudget): ReadBudget {
  return {
    rest_requests: stored.rest_requests,
    from_cache: stored.from_cache,
    busiest_endpoint: stored.busiest_endpoint,
    graphql_queries: stored.graphql_queries,
    graphql_points: stored.graphql_points,
    rest_limit: stored.rest_limit,
    graphql_limit: stored.graphql_limit,
    ...(stored.gitlab !== undefined ? { gitlab: gitlabBudgetOf(stored.gitlab) } : {}),
  };
}

function gitlabBudgetOf(stored: GitlabReadBudget): GitlabReadBudget {
  return {
    limits: stored.limits,
    rest_requests: stored.rest_requests,
    from_cache: stored.from_cache,
    without_validator: stored.without_validator,
    requests_by_endpoint_group: { ...stored.requests_by_endpoint_group },
    endpoint_limits: { ...stored.endpoint_limits },
    graphql_queries: stored.graphql_queries,
    graphql_complexity: stored.graphql_complexity,
  };
}
