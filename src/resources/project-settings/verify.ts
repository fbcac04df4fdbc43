import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { agrees, liveValue, projectAnswer } from "./canonical.js";

/**
 * What GitLab did not keep of a `PUT /projects/:id`: each field sent, as its answer shows it. A
 * field a lower tier drops (`allow_pipeline_trigger_approve_deployment` below Premium) is missing
 * from the answer and is reported as not kept, as GitLab answered.
 */
export function verifyProjectSettings(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "PUT") return [];
  const parsed = projectAnswer.schema.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a project", after: "something else" }];
  const answer = parsed.data as Record<string, unknown>;
  const sent: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
    const shown = liveValue(answer, field);
    sent[field] = value;
    kept[field] = agrees(field, value, shown) ? value : (shown ?? null);
  }
  return diffValues(sent, kept);
}
