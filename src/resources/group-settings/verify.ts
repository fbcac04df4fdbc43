import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { groupAnswer, liveValue } from "./canonical.js";

/**
 * What GitLab did not keep of a `PUT /groups/:id`: each field sent, as its answer shows it. A
 * field a lower tier drops is missing from the answer and is reported as not kept.
 */
export function verifyGroupSettings(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "PUT") return [];
  const parsed = groupAnswer.schema.safeParse(response);
  if (!parsed.success) return [{ path: "(response)", before: "a group", after: "something else" }];
  const sent: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
    // Both in the compared shape: the protection defaults' levels by name, sorted.
    const shown = liveValue(parsed.data, field);
    const wrote = liveValue({ [field]: value }, field);
    sent[field] = wrote;
    kept[field] = JSON.stringify(shown) === JSON.stringify(wrote) ? wrote : (shown ?? null);
  }
  return diffValues(sent, kept);
}
