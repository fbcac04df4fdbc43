import { createHash } from "node:crypto";
import type { Change, Plan } from "../core/plan.js";
import { stableJson } from "../core/plain.js";

/**
 * The digest of a plan as a reviewer saw it, so a later run can tell whether it would do exactly
 * that. It covers what the plan would do and what a reviewer weighs: every change that sends
 * requests (its address, action, diff, requests and hold) and every change that could not be
 * planned. Unchanged resources, audit reports (whose findings age by the day) and notes are left
 * out. The plan is digested as a saved plan holds it (sensitive values read "(sensitive)"), so the
 * digest shows no secret and two runs with the same values agree.
 */

export interface PlanDigest {
  /** SHA-256 of the whole: equal digests mean the plans would do the same. */
  sha256: string;
  /**
   * The plan was of a change (`plan --changed-from`): a run that checks it must plan the same
   * change, not the whole configuration. Not part of `sha256`, which is of what the plan would do.
   */
  partial?: true;
  /**
   * A short digest per address, to say which changes differ; left out when the plan is too large
   * to carry them in a pull-request comment.
   */
  changes?: Record<string, string>;
}

function counted(change: Change): boolean {
  return change.error !== undefined || change.requests.length > 0;
}

function entry(change: Change): string {
  const { address, action, diff, requests, held, error } = change;
  return stableJson({ address, action, diff, requests, held, error });
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function planDigest(plan: Plan): PlanDigest {
  const entries = plan.changes
    .filter(counted)
    .map((change) => [change.address, sha256(entry(change))] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    sha256: sha256(stableJson(entries)),
    ...(plan.partial !== undefined ? { partial: true as const } : {}),
    changes: Object.fromEntries(entries.map(([address, digest]) => [address, digest.slice(0, 16)])),
  };
}

const PREFIX = "<!-- forgeplan-plan-digest ";
const SUFFIX = " -->";

/**
 * The digest as a hidden line of a markdown document. `>` is written `\u003e`, so no address can
 * close the comment early; the per-change digests are dropped when the line would be longer than
 * `maxLength`.
 */
export function digestLine(digest: PlanDigest, maxLength = 20_000): string {
  const line = (value: PlanDigest) =>
    `${PREFIX}${JSON.stringify(value).replace(/>/g, "\\u003e")}${SUFFIX}`;
  const whole = line(digest);
  if (whole.length <= maxLength) return whole;
  return line({ sha256: digest.sha256, ...(digest.partial ? { partial: true as const } : {}) });
}

/** The digest a document's hidden line carries, if it carries a readable one. */
export function readDigest(text: string): PlanDigest | undefined {
  const start = text.indexOf(PREFIX);
  if (start < 0) return undefined;
  const end = text.indexOf(SUFFIX, start + PREFIX.length);
  if (end < 0) return undefined;
  try {
    const value = JSON.parse(text.slice(start + PREFIX.length, end)) as unknown;
    if (value === null || typeof value !== "object") return undefined;
    const {
      sha256: whole,
      partial,
      changes,
    } = value as { sha256?: unknown; partial?: unknown; changes?: unknown };
    if (typeof whole !== "string" || !/^[0-9a-f]{64}$/.test(whole)) return undefined;
    const head = { sha256: whole, ...(partial === true ? { partial: true as const } : {}) };
    if (changes === undefined) return head;
    if (changes === null || typeof changes !== "object") return undefined;
    const entries = Object.entries(changes);
    if (!entries.every(([, digest]) => typeof digest === "string")) return undefined;
    return { ...head, changes: Object.fromEntries(entries) as Record<string, string> };
  } catch {
    return undefined;
  }
}

/** How a plan differs from the reviewed one, change by change where the reviewed digest says. */
export interface DigestDifference {
  /** Changes the reviewed plan did not have. */
  added: string[];
  /** Changes of the reviewed plan that are no longer planned. */
  removed: string[];
  /** Changes planned in both, but not the same way. */
  changed: string[];
  /** The reviewed digest carried no per-change digests: only that the plans differ is known. */
  unitemized: boolean;
}

export function digestDifference(reviewed: PlanDigest, now: PlanDigest): DigestDifference {
  if (reviewed.changes === undefined || now.changes === undefined) {
    return { added: [], removed: [], changed: [], unitemized: true };
  }
  const before = reviewed.changes;
  const after = now.changes;
  return {
    added: Object.keys(after).filter((address) => !Object.hasOwn(before, address)),
    removed: Object.keys(before).filter((address) => !Object.hasOwn(after, address)),
    changed: Object.keys(after).filter(
      (address) => Object.hasOwn(before, address) && before[address] !== after[address],
    ),
    unitemized: false,
  };
}
