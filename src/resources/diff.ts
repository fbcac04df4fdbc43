import deepDiff from "deep-diff";
import type { DiffEntry } from "../core/plan.js";
import { isPlainObject } from "../core/plain.js";

/**
 * The one place forgeplan diffs values. Inputs are canonical (normalized) shapes; arrays in them are
 * sets already sorted by the normalizers, so an array that differs is reported as a whole value
 * (`checks: [a] → [a, b]`), which is what a reviewer wants to read, rather than per-index edits.
 */
export function diffValues(before: unknown, after: unknown, prefix = ""): DiffEntry[] {
  const raw = deepDiff.diff(before, after) ?? [];
  const entries = new Map<string, DiffEntry>();
  for (const change of raw) {
    const path = change.path ?? [];
    const arrayAt = path.findIndex((_, i) => Array.isArray(valueAt(before, path.slice(0, i + 1))));
    const cut = change.kind === "A" ? path.length : arrayAt >= 0 ? arrayAt + 1 : path.length;
    const keyPath = path.slice(0, cut);
    const key = joinPath(prefix, keyPath);
    if (entries.has(key)) continue;
    const entry: DiffEntry = { path: key };
    const lhs = keyPath.length === 0 ? before : valueAt(before, keyPath);
    const rhs = keyPath.length === 0 ? after : valueAt(after, keyPath);
    const added = isPlainObject(rhs) && (lhs === null || lhs === undefined) ? leaves(rhs, key) : [];
    const removed =
      isPlainObject(lhs) && (rhs === null || rhs === undefined) ? leaves(lhs, key) : [];
    for (const [leaf, value] of added) entries.set(leaf, { path: leaf, after: value });
    for (const [leaf, value] of removed) entries.set(leaf, { path: leaf, before: value });
    if (added.length + removed.length > 0) continue;
    if (lhs !== undefined) entry.before = lhs;
    if (rhs !== undefined) entry.after = rhs;
    entries.set(key, entry);
  }
  return [...entries.values()];
}

/**
 * A section that appears or disappears as a whole is shown field by field, so a reviewer reads
 * `+ required_pull_request_reviews.required_approving_review_count: 2` rather than one long object.
 * Empty lists inside it are left out: an empty list and no list are the same state.
 */
function leaves(value: Record<string, unknown>, prefix: string): Array<[string, unknown]> {
  return Object.entries(value).flatMap(([key, inner]): Array<[string, unknown]> => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(inner)) return leaves(inner, path);
    if (Array.isArray(inner) && inner.length === 0) return [];
    return [[path, inner]];
  });
}

function valueAt(value: unknown, path: readonly unknown[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[String(key)];
  }
  return current;
}

function joinPath(prefix: string, path: readonly unknown[]): string {
  const parts = path.map(String);
  if (prefix) parts.unshift(prefix);
  return parts.join(".");
}
