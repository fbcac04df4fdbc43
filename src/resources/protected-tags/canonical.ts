/** GitLab's protected tag as forgeplan reads it, compares it, and checks a write's answer. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { liveEntry, unkept } from "../protected-ref-access.js";

/** "List protected tags" and the POST's answer (docs, "Protected tags API"): no id of its own. */
export const tagAnswer = z.looseObject({
  name: z.string(),
  create_access_levels: z.array(liveEntry),
});
export type TagAnswer = z.infer<typeof tagAnswer>;

export const TAG_SHAPE = { name: "protected tags", schema: tagAnswer };

/** What GitLab did not keep of a POST: each entry sent that its answer lacks. */
export function verifyProtectedTag(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST") return [];
  const parsed = tagAnswer.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a protected tag", after: "something else" }];
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const items = [
    ...((sent.allowed_to_create as Array<Record<string, unknown>> | undefined) ?? []),
    ...(typeof sent.create_access_level === "number"
      ? [{ access_level: sent.create_access_level }]
      : []),
  ];
  return unkept(items, parsed.data.create_access_levels).map((item) => ({
    path: "create_access_levels",
    before: item,
    after: "not kept",
  }));
}
