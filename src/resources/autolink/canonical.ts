/** An autolink as forgeplan compares it, and what a create must read back. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";

/** GitHub's Autolink reference; every field the planner reads is checked. */
export const readAutolink = z.looseObject({
  id: z.number().int(),
  key_prefix: z.string().min(1),
  url_template: z.string(),
  is_alphanumeric: z.boolean(),
});
export type ReadAutolink = z.infer<typeof readAutolink>;

export const AUTOLINK_SHAPE = { name: "autolinks", schema: readAutolink };

export interface CanonicalAutolink {
  url_template: string;
  is_alphanumeric: boolean;
}

export function fromRead(autolink: ReadAutolink): CanonicalAutolink {
  return { url_template: autolink.url_template, is_alphanumeric: autolink.is_alphanumeric };
}

/** What the answer to a create lacks of what was sent. */
export function verifyAutolink(request: PlannedRequest, response: unknown): DiffEntry[] {
  const parsed = readAutolink.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "an autolink", after: "something else" }];
  }
  const sent = request.body as CanonicalAutolink & { key_prefix: string };
  const { key_prefix, url_template, is_alphanumeric } = parsed.data;
  return diffValues(
    {
      key_prefix: sent.key_prefix,
      url_template: sent.url_template,
      is_alphanumeric: sent.is_alphanumeric,
    },
    { key_prefix, url_template, is_alphanumeric },
  );
}
