/** A badge as forgeplan compares it, and what a write must read back. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";

/**
 * GitLab's Badge (doc/api/project_badges.md): `kind` is `project` for a project's own badge and
 * `group` for one its group shows on it; `name` may be null for a badge made without one.
 */
export const readBadge = z.looseObject({
  id: z.number().int(),
  name: z.string().nullable(),
  link_url: z.string(),
  image_url: z.string(),
  kind: z.enum(["project", "group"]),
});
export type ReadBadge = z.infer<typeof readBadge>;

export const BADGE_SHAPE = { name: "badges", schema: readBadge };

export interface CanonicalBadge {
  link_url: string;
  image_url: string;
}

export function fromRead(badge: ReadBadge): CanonicalBadge {
  return { link_url: badge.link_url, image_url: badge.image_url };
}

/** What the answer to a create or an edit lacks of what was sent. */
export function verifyBadge(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const parsed = readBadge.safeParse(response);
  if (!parsed.success) return [{ path: "(response)", before: "a badge", after: "something else" }];
  const sent = request.body as CanonicalBadge & { name: string };
  return diffValues(
    { name: sent.name, link_url: sent.link_url, image_url: sent.image_url },
    { name: parsed.data.name, ...fromRead(parsed.data) },
  );
}
