/** A GitLab member as forgeplan reads and compares it, and what a write's answer must show. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { type LevelName, levelName } from "../gitlab-access-levels.js";

/**
 * A member as GitLab's members API answers it ("Group and project members API", "List all members
 * of a group or project"): the user's id and username, `access_level`, `expires_at`
 * (`YEAR-MONTH-DAY` or null) and, with a custom role, `member_role` (left out without one: GitLab
 * EE's member entity exposes it with `expose_nil: false`).
 */
export const memberShape = {
  name: "members",
  schema: z.looseObject({
    id: z.number().int(),
    username: z.string().min(1),
    access_level: z.number().int(),
    expires_at: z.string().nullable().optional(),
    member_role: z
      .looseObject({
        id: z.number().int(),
        name: z.string(),
        base_access_level: z.number().int(),
      })
      .nullable()
      .optional(),
  }),
};

export type LiveMember = z.infer<typeof memberShape.schema>;

/** A user as `GET /users?username=` lists it. */
export const userShape = {
  name: "users",
  schema: z.looseObject({ id: z.number().int(), username: z.string().min(1) }),
};

/**
 * A member as compared and shown: its level by name, and its expiry and custom role (by name)
 * where they are managed.
 */
export interface CanonicalMember {
  access_level: LevelName | number;
  expires_at?: string | null;
  member_role?: string | null;
}

/** The name of a member's custom role, null without one. */
export function roleOf(live: LiveMember): string | null {
  return live.member_role?.name ?? null;
}

/**
 * GitLab answers `expires_at` as a date, or (in older answers) a time on that date: compared by
 * the date.
 */
export function expiryOf(live: { expires_at?: string | null }): string | null {
  return live.expires_at == null ? null : live.expires_at.slice(0, 10);
}

export function canonicalLive(
  live: LiveMember,
  withExpiry: boolean,
  withRole = false,
): CanonicalMember {
  const shown: CanonicalMember = { access_level: levelName(live.access_level) };
  if (withExpiry) shown.expires_at = expiryOf(live);
  if (withRole) shown.member_role = roleOf(live);
  return shown;
}

/** What a member's POST or PUT answer must show of what was sent: its level, expiry and role. */
export function verifyMemberWrite(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const parsed = memberShape.schema.safeParse(response);
  if (!parsed.success) return [{ path: "(response)", before: "a member", after: "something else" }];
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const expected: Record<string, unknown> = { access_level: sent.access_level };
  const got: Record<string, unknown> = { access_level: parsed.data.access_level };
  if ("expires_at" in sent) {
    expected.expires_at = sent.expires_at === "" ? null : sent.expires_at;
    got.expires_at = expiryOf(parsed.data);
  }
  if ("member_role_id" in sent) {
    expected.member_role_id = sent.member_role_id;
    got.member_role_id = parsed.data.member_role?.id ?? null;
  }
  return diffValues(expected, got);
}
