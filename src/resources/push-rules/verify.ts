import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { liveField, pushRuleSchema } from "./canonical.js";
import type { PushRuleField } from "./settings.js";

/** What GitLab did not keep of a push rule's POST or PUT: each field sent, as its answer shows it. */
export function verifyPushRule(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const parsed = pushRuleSchema.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a push rule", after: "something else" }];
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const kept = Object.fromEntries(
    Object.keys(sent).map((field) => [field, liveField(parsed.data, field as PushRuleField)]),
  );
  return diffValues(sent, kept);
}
