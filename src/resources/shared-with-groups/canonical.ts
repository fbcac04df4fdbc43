/** A share as GitLab answers it in a project's or group's `shared_with_groups`, and as compared. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { type LevelName, levelName } from "../gitlab-access-levels.js";

/**
 * One entry of `shared_with_groups` ("Projects API", "Get a single project"; "Groups API", "Get a
 * single group"): the invited group's id and full path, its level and end date.
 */
const liveShare = z.looseObject({
  group_id: z.number().int(),
  group_full_path: z.string().min(1),
  group_access_level: z.number().int(),
  expires_at: z.string().nullable().optional(),
});

export type LiveShare = z.infer<typeof liveShare>;

/** A project's or group's answer as far as shares go: a list GitLab always answers. */
export const sharedAnswer = (what: "a project" | "a group") => ({
  name: what,
  schema: z.looseObject({
    id: z.number().int(),
    shared_with_groups: z.array(liveShare),
    // A project's group, for one written by its id: it cannot be shared with it or those above.
    namespace: z.looseObject({ full_path: z.string().min(1) }).optional(),
  }),
});

/** A group found by its path, for the id a new share names. */
export const groupAnswer = {
  name: "a group",
  schema: z.looseObject({ id: z.number().int(), full_path: z.string().min(1) }),
};

export interface CanonicalShare {
  group_access: LevelName | number;
  expires_at?: string | null;
}

export function expiryOf(live: { expires_at?: string | null }): string | null {
  return live.expires_at == null ? null : live.expires_at.slice(0, 10);
}

export function canonicalLive(live: LiveShare, withExpiry: boolean): CanonicalShare {
  const shown: CanonicalShare = { group_access: levelName(live.group_access_level) };
  if (withExpiry) shown.expires_at = expiryOf(live);
  return shown;
}

const projectLink = z.looseObject({
  group_id: z.number().int(),
  group_access: z.number().int(),
  expires_at: z.string().nullable().optional(),
});
const groupWithShares = z.looseObject({ shared_with_groups: z.array(liveShare) });

/**
 * What a share's POST answer must show: the link (a project's share answers it) or the group's
 * `shared_with_groups` entry (a group's share answers the group), with the level and end sent.
 */
export function verifyShareWrite(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST") return [];
  const sent = (request.body ?? {}) as {
    group_id?: number;
    group_access?: number;
    expires_at?: string;
  };
  const expected = { group_access: sent.group_access, expires_at: sent.expires_at ?? null };
  const link = projectLink.safeParse(response);
  if (link.success) {
    return diffValues(expected, {
      group_access: link.data.group_access,
      expires_at: expiryOf(link.data),
    });
  }
  const group = groupWithShares.safeParse(response);
  if (!group.success) return [{ path: "(response)", before: "a share", after: "something else" }];
  const entry = group.data.shared_with_groups.find((share) => share.group_id === sent.group_id);
  if (entry === undefined)
    return [{ path: "shared_with_groups", before: sent.group_id, after: "absent" }];
  return diffValues(expected, {
    group_access: entry.group_access_level,
    expires_at: expiryOf(entry),
  });
}
