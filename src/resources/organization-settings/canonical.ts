import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { MANAGED, MANAGED_KEYS, type ManagedKey, type OrganizationSettings } from "./settings.js";

/**
 * An organization's settings as compared: GitHub answers an unset text field as null or leaves it
 * out, and takes "" to clear one, so absent, null and "" are the same value. The settings beyond
 * the public profile are in the answer only for the organization's owners.
 */

export function isFlag(key: ManagedKey): boolean {
  return MANAGED[key].unwrap() instanceof z.ZodBoolean;
}

/** The fields of GitHub's Organization Full that are read: text may be null, the rest as typed. */
export const readOrganization = z.looseObject(
  Object.fromEntries(
    MANAGED_KEYS.map((key) => [key, isFlag(key) ? z.boolean().nullish() : z.string().nullish()]),
  ),
);
export const organizationShape = { name: "an Organization", schema: readOrganization };

export type Read = z.infer<typeof readOrganization>;

export function orgPath(org: string): string {
  return `/orgs/${encodeURIComponent(org)}`;
}

/**
 * The live value of each managed field the desired value writes; a flag the answer lacks is
 * reported (only owners see them), text that is absent or null is "".
 */
export function liveOf(
  read: Read,
  keys: readonly ManagedKey[],
): { live: OrganizationSettings } | { missing: ManagedKey[] } {
  const live: OrganizationSettings = {};
  const missing: ManagedKey[] = [];
  for (const key of keys) {
    const value = read[key];
    if (isFlag(key)) {
      if (typeof value === "boolean") live[key] = value;
      else missing.push(key);
    } else live[key] = typeof value === "string" ? value : "";
  }
  return missing.length > 0 ? { missing } : { live };
}

export function writtenKeys(value: OrganizationSettings): ManagedKey[] {
  return MANAGED_KEYS.filter((key) => value[key] !== undefined);
}

/** What a PATCH's answer shows of what it sent (an empty text reads back absent or null). */
export function verifyOrganizationSettings(
  request: PlannedRequest,
  response: unknown,
): DiffEntry[] {
  if (request.method !== "PATCH") return [];
  const sent = (request.body ?? {}) as OrganizationSettings;
  const parsed = readOrganization.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "an Organization", after: "something else" }];
  const keys = writtenKeys(sent);
  const found = liveOf(parsed.data, keys);
  const got: Record<string, unknown> = "live" in found ? found.live : {};
  return diffValues(Object.fromEntries(keys.map((key) => [key, sent[key]])), got);
}
