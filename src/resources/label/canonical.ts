/**
 * A label as forgeplan compares it: GitHub's Label read shape normalized (colour lower-case without
 * `#`, no description as ""), and what a write must read back.
 */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";

/** GitHub's Label as listed; every field the planner reads is checked. */
export const readLabel = z.looseObject({
  name: z.string().min(1),
  color: z.string(),
  description: z.string().nullable().optional(),
});
export type ReadLabel = z.infer<typeof readLabel>;

export const LABEL_SHAPE = { name: "labels", schema: readLabel };

export interface CanonicalLabel {
  name: string;
  color: string;
  description: string;
}

/** `#D73A4A` and `d73a4a` are one colour: GitHub's are six hex digits without `#`. */
export function colorOf(written: string): string {
  return written.replace(/^#/, "").toLowerCase();
}

export function fromRead(label: ReadLabel): CanonicalLabel {
  return {
    name: label.name,
    color: colorOf(label.color),
    description: label.description ?? "",
  };
}

export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** What an answer to a label's POST or PATCH lacks of what was sent. */
export function verifyLabel(request: PlannedRequest, response: unknown): DiffEntry[] {
  const parsed = readLabel.safeParse(response);
  if (!parsed.success) return [{ path: "(response)", before: "a label", after: "something else" }];
  const sent = (request.body ?? {}) as Record<string, string | undefined>;
  const actual = fromRead(parsed.data);
  const expected: Partial<CanonicalLabel> = {};
  const got: Partial<CanonicalLabel> = {};
  const name = sent.new_name ?? sent.name;
  if (name !== undefined) {
    expected.name = name;
    got.name = actual.name;
  }
  if (sent.color !== undefined) {
    expected.color = colorOf(sent.color);
    got.color = actual.color;
  }
  if (sent.description !== undefined) {
    expected.description = sent.description;
    got.description = actual.description;
  }
  return diffValues(expected, got);
}
