import { z } from "zod";
import { ACTIONS, type Change, type Plan, RESOURCE_KINDS } from "../core/plan.js";
import { stableJson } from "../resources/fingerprint.js";

/** A saved plan that cannot be used, with a one-line reason that names the file. */
export class SavedPlanError extends Error {
  override name = "SavedPlanError";
}

const request = z.object({
  method: z.enum(["GET", "PUT", "PATCH", "POST", "DELETE"]),
  path: z.string().startsWith("/", { error: 'expected a path starting with "/"' }),
  body: z.unknown().optional(),
});

const change = z.looseObject({
  address: z.string().min(1),
  kind: z.enum(RESOURCE_KINDS),
  action: z.enum(ACTIONS),
  target: z.string().min(1),
  scope: z.string(),
  name: z.string(),
  diff: z.array(z.unknown()),
  requests: z.array(request),
  live_fingerprint: z.string().optional(),
  held: z.string().optional(),
  error: z
    .looseObject({
      message: z.string(),
      request: z.string().optional(),
      status: z.number().optional(),
    })
    .optional(),
});

const savedPlan = z.looseObject({
  format_version: z.literal(1),
  changes: z.array(change),
  summary: z.looseObject({}),
  errors: z.number().int().nonnegative().optional(),
  config: z.array(z.string().min(1)).min(1).optional(),
  rotate_secrets: z.literal(true).optional(),
});

function where(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`,
    )
    .join("");
}

/**
 * Reads a plan saved by `plan --out` (the contract's JSON). Anything that is not such a plan is
 * refused with one line naming the file and the first key that is wrong.
 */
export function parseSavedPlan(text: string, file: string): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new SavedPlanError(`${file} is not valid JSON: ${reason}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SavedPlanError(`${file} is not a forgeplan plan (expected a JSON object)`);
  }
  const version = (value as Record<string, unknown>).format_version;
  if (version !== 1) {
    throw new SavedPlanError(
      `${file} has format_version ${JSON.stringify(version) ?? "missing"}; this forgeplan reads format_version 1`,
    );
  }
  const parsed = savedPlan.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SavedPlanError(`${file}: ${where(issue?.path ?? [])}: ${issue?.message}`);
  }
  const changes = parsed.data.changes as Change[];
  return {
    format_version: 1,
    changes,
    summary: parsed.data.summary as unknown as Plan["summary"],
    errors: changes.filter((entry) => entry.error !== undefined).length,
    ...(parsed.data.config ? { config: parsed.data.config } : {}),
    ...(parsed.data.rotate_secrets ? { rotate_secrets: true } : {}),
  };
}

/** A saved change that may not be applied, and why. */
export interface Refusal {
  address: string;
  reason: string;
}

function sendsRequests(entry: Change | undefined): entry is Change {
  return entry !== undefined && entry.requests.length > 0 && entry.error === undefined;
}

/**
 * Checks a saved plan against a fresh plan of the same configuration, change by change. A saved
 * change may be applied only if the fresh plan still plans it against the same live state (the
 * fingerprint of the normalized resource) with the same requests; and the fresh plan must not have
 * work the saved plan lacks. Any difference means what was reviewed is no longer what would happen.
 */
export function checkSavedPlan(saved: Plan, fresh: Plan): Refusal[] {
  const freshByAddress = new Map(fresh.changes.map((entry) => [entry.address, entry]));
  const savedByAddress = new Map(saved.changes.map((entry) => [entry.address, entry]));
  const refusals: Refusal[] = [];
  for (const entry of saved.changes.filter(sendsRequests)) {
    const now = freshByAddress.get(entry.address);
    const reason = refusalOf(entry, now);
    if (reason !== undefined) refusals.push({ address: entry.address, reason });
  }
  for (const entry of fresh.changes.filter(sendsRequests)) {
    if (sendsRequests(savedByAddress.get(entry.address))) continue;
    refusals.push({
      address: entry.address,
      reason: `a fresh plan has a ${entry.action} here that the saved plan does not (the live state or the configuration changed)`,
    });
  }
  return refusals;
}

function refusalOf(entry: Change, now: Change | undefined): string | undefined {
  if (now === undefined) return "it is no longer in the plan (the configuration changed)";
  if (now.error !== undefined) return `it cannot be checked now: ${now.error.message}`;
  if (entry.live_fingerprint === undefined) {
    return "the saved plan records no live fingerprint for it";
  }
  if (now.live_fingerprint !== entry.live_fingerprint) {
    return "the live state changed since the plan was made";
  }
  if (stableJson(now.requests) !== stableJson(entry.requests)) {
    return "a fresh plan would send different requests (the configuration changed)";
  }
  return undefined;
}

/**
 * The saved plan as it will be applied: its own changes and requests, held if either the saved plan
 * or the fresh one holds them (a lock taken since the plan was made is honored too).
 */
export function withCurrentHolds(saved: Plan, fresh: Plan): Plan {
  const freshByAddress = new Map(fresh.changes.map((entry) => [entry.address, entry]));
  return {
    ...saved,
    changes: saved.changes.map((entry) => {
      const current = freshByAddress.get(entry.address)?.held;
      if (current !== undefined) return { ...entry, held: current };
      if (entry.held === undefined) return entry;
      return {
        ...entry,
        held: `${entry.held} when the plan was made; make a new plan to apply it`,
      };
    }),
  };
}
