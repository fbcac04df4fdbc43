/** A deploy key as forgeplan compares it, and what a write must read back. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { sha256Fingerprint } from "./ssh-key.js";

/**
 * GitLab's DeployKeysProject (doc/api/deploy_keys.md, "List deploy keys for project"): the key's
 * own fields (id, title, key, fingerprints, expires_at — null without one) and the project's
 * `can_push`. `fingerprint` (MD5) is absent on FIPS instances, so only `fingerprint_sha256` is
 * relied on (GitLab 15.2 and later).
 */
export const readProjectKey = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  key: z.string(),
  fingerprint_sha256: z.string(),
  can_push: z.boolean(),
  expires_at: z.string().nullable().optional(),
});
export type ReadProjectKey = z.infer<typeof readProjectKey>;

export const PROJECT_KEY_SHAPE = { name: "deploy keys", schema: readProjectKey };

/** GitLab's DeployKey of the instance listing (`GET /deploy_keys`, administrators). */
export const readInstanceKey = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  fingerprint_sha256: z.string(),
  expires_at: z.string().nullable().optional(),
});
export type ReadInstanceKey = z.infer<typeof readInstanceKey>;

export const INSTANCE_KEY_SHAPE = { name: "deploy keys of the instance", schema: readInstanceKey };

/** A key as it is compared: its fingerprint stands for the key, an expiry as a time. */
export interface CanonicalKey {
  title: string;
  fingerprint: string;
  can_push: boolean;
  expires_at: string | null;
}

/** An expiry as one instant (`2027-01-31T00:00:00Z` and `…00.000Z` are the same time). */
export function instant(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? text : new Date(time).toISOString();
}

export function fromRead(key: ReadProjectKey): CanonicalKey {
  return {
    title: key.title,
    fingerprint: key.fingerprint_sha256,
    can_push: key.can_push,
    expires_at: instant(key.expires_at),
  };
}

/** What the answer to an add, an enable or an edit lacks of what was sent. */
export function verifyDeployKey(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const sent = (request.body ?? {}) as {
    title?: string;
    key?: string;
    can_push?: boolean;
    expires_at?: string;
  };
  if (request.path.endsWith("/enable")) {
    const parsed = z.looseObject({ id: z.number().int() }).safeParse(response);
    const id = Number(request.path.split("/").at(-2));
    if (!parsed.success || parsed.data.id !== id)
      return [{ path: "(response)", before: `deploy key ${id}`, after: "something else" }];
    return [];
  }
  const parsed = readProjectKey.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a deploy key", after: "something else" }];
  const wanted: Record<string, unknown> = {};
  const got: Record<string, unknown> = {};
  if (sent.key !== undefined) {
    wanted.fingerprint = sha256Fingerprint(sent.key);
    got.fingerprint = parsed.data.fingerprint_sha256;
  }
  if (sent.title !== undefined && request.method === "PUT") {
    // An add that joined a key already on the instance keeps that key's title (lib/api/deploy_keys.rb).
    wanted.title = sent.title;
    got.title = parsed.data.title;
  }
  if (request.method === "POST") {
    wanted.expires_at = instant(sent.expires_at);
    got.expires_at = instant(parsed.data.expires_at);
  }
  if (sent.can_push !== undefined) {
    wanted.can_push = sent.can_push;
    got.can_push = parsed.data.can_push;
  }
  return diffValues(wanted, got);
}
