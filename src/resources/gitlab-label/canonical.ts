/**
 * A GitLab label as forgeplan compares it, and what a write must read back. Colours compare as
 * colours: GitLab stores a CSS name as its hex (`red` as `#FF0000`, Gitlab::Color.of) and a hex as
 * written (`#F00`, `#d73a4a`), so both sides become six lower-case hex digits with `#`.
 */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { NAMED_COLORS } from "./colors.js";

/**
 * GitLab's Label as a project's or a group's listing shows it (doc/api/labels.md,
 * group_labels.md): a project's shows `priority` (in that project) and `is_project_label`, false
 * for a label of a group above it; a label made without a description has `description: null`.
 */
export const readLabel = z.looseObject({
  id: z.number().int(),
  name: z.string().min(1),
  color: z.string(),
  description: z.string().nullable(),
  priority: z.number().int().nullable().optional(),
  is_project_label: z.boolean().optional(),
});
export type ReadLabel = z.infer<typeof readLabel>;

export const LABEL_SHAPE = { name: "labels", schema: readLabel };

/** A project's listing must say whose each label is and its priority. */
export const PROJECT_LABEL_SHAPE = {
  name: "labels",
  schema: readLabel.extend({
    priority: z.number().int().nullable(),
    is_project_label: z.boolean(),
  }),
};

export interface CanonicalLabel {
  id: number;
  name: string;
  color: string;
  description: string;
  /** A project's label only: its priority there, or null. */
  priority?: number | null;
}

/** A colour as written or stored, as the colour it is: `#rrggbb`. */
export function colorOf(written: string): string {
  const named = NAMED_COLORS[written.trim().toLowerCase()];
  const digits = (named ?? written.trim()).replace(/^#/, "").toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits}`;
}

/** What a colour is sent as: a name as written, hex digits with GitLab's required `#`. */
export function sentColor(written: string): string {
  return NAMED_COLORS[written.toLowerCase()] !== undefined || written.startsWith("#")
    ? written
    : `#${written}`;
}

export function fromRead(label: ReadLabel, withPriority: boolean): CanonicalLabel {
  const canonical: CanonicalLabel = {
    id: label.id,
    name: label.name,
    color: colorOf(label.color),
    description: label.description ?? "",
  };
  if (withPriority) canonical.priority = label.priority ?? null;
  return canonical;
}

/** What is compared of a label: everything but its id. */
export function compared({ id: _id, ...rest }: CanonicalLabel): Omit<CanonicalLabel, "id"> {
  return rest;
}

/** What an answer to a label's POST or PUT lacks of what was sent. */
export function verifyLabel(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const parsed = readLabel.safeParse(response);
  if (!parsed.success) return [{ path: "(response)", before: "a label", after: "something else" }];
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const actual = fromRead(parsed.data, true);
  const expected: Record<string, unknown> = {};
  const got: Record<string, unknown> = {};
  const name = sent.new_name ?? sent.name;
  if (typeof name === "string") {
    expected.name = name;
    got.name = actual.name;
  }
  if (typeof sent.color === "string") {
    expected.color = colorOf(sent.color);
    got.color = actual.color;
  }
  if (typeof sent.description === "string") {
    expected.description = sent.description;
    got.description = actual.description;
  }
  if ("priority" in sent) {
    expected.priority = sent.priority ?? null;
    got.priority = actual.priority ?? null;
  }
  return diffValues(expected, got);
}
