import * as z from "zod";
import { type Change, type DiffEntry, newChange, type PlannedRequest } from "../../core/plan.js";
import { changeError, mustFind, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { KindModule } from "../kind.js";
import {
  MANAGED,
  MANAGED_KEYS,
  type ManagedKey,
  type OrganizationSettings,
  organizationSettings,
} from "./settings.js";

/**
 * An organization's own settings: read with `GET /orgs/{org}`, written with one `PATCH /orgs/{org}`
 * of the fields that differ. Only fields written are compared. GitHub answers an unset text field
 * as null or leaves it out, and takes "" to clear one, so absent, null and "" are the same value.
 * The settings beyond the public profile are in the answer only for the organization's owners: a
 * managed one that is missing is an error, never a reason to write.
 */

const KIND = "organization_settings";

const CREATION = [
  "members_can_create_repositories",
  "members_can_create_public_repositories",
  "members_can_create_private_repositories",
  "members_can_create_internal_repositories",
] as const;
const NAME = "settings";

function isFlag(key: ManagedKey): boolean {
  return MANAGED[key].unwrap() instanceof z.ZodBoolean;
}

/** The fields of GitHub's Organization Full that are read: text may be null, the rest as typed. */
const readOrganization = z.looseObject(
  Object.fromEntries(
    MANAGED_KEYS.map((key) => [key, isFlag(key) ? z.boolean().nullish() : z.string().nullish()]),
  ),
);
const organizationShape = { name: "an Organization", schema: readOrganization };

type Read = z.infer<typeof readOrganization>;

function orgPath(org: string): string {
  return `/orgs/${encodeURIComponent(org)}`;
}

/**
 * The live value of each managed field the desired value writes; a flag the answer lacks is
 * reported (only owners see them), text that is absent or null is "".
 */
function liveOf(
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

function writtenKeys(value: OrganizationSettings): ManagedKey[] {
  return MANAGED_KEYS.filter((key) => value[key] !== undefined);
}

async function plan(
  reader: ResourceReader,
  org: string,
  value: OrganizationSettings,
): Promise<Change[]> {
  const change = newChange(reader.target, org, KIND, NAME);
  const path = orgPath(org);
  const read = await reader.getOrAbsent(path, organizationShape);
  if (read.kind === "error") return [{ ...change, error: read.error }];
  if (read.kind === "absent") {
    return [
      {
        ...change,
        error: changeError(
          `organization ${org} was not found (or ${reader.credential} cannot see it)`,
          "GET",
          path,
          404,
        ),
      },
    ];
  }
  const keys = writtenKeys(value);
  const found = liveOf(read.data, keys);
  if ("missing" in found) {
    return [
      {
        ...change,
        error: changeError(
          `the answer has no ${found.missing.join(", ")}: only owners of ${org} see ${found.missing.length === 1 ? "it" : "them"}`,
          "GET",
          path,
          200,
        ),
      },
    ];
  }
  const desired = Object.fromEntries(keys.map((key) => [key, value[key]]));
  const diff = diffValues(found.live, desired);
  const planned = { ...change, live_fingerprint: fingerprint(found.live) };
  if (diff.length === 0) return [planned];
  const body: Record<string, unknown> = Object.fromEntries(
    diff.map((entry) => [entry.path, entry.after]),
  );
  // Whether members can create repositories is whether they can create some kind of them: the
  // written ones go together, so the service settles them as the configuration says.
  if (CREATION.some((key) => key in body)) {
    for (const key of CREATION) if (value[key] !== undefined) body[key] = value[key];
  }
  const request: PlannedRequest = { method: "PATCH", path, body };
  return [{ ...planned, action: "update", diff, requests: [request] }];
}

/** What a PATCH's answer shows of what it sent (an empty text reads back absent or null). */
function verify(request: PlannedRequest, response: unknown): DiffEntry[] {
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

/** Every managed field as it is live; unset text is left out (unmanaged). */
async function exportSettings(reader: ResourceReader, org: string): Promise<unknown> {
  const path = orgPath(org);
  const read = mustFind(await reader.getOrAbsent(path, organizationShape), path);
  const exported: OrganizationSettings = {};
  for (const key of MANAGED_KEYS) {
    const value = read[key];
    if (typeof value === "boolean" || (typeof value === "string" && value !== "")) {
      exported[key] = value;
    }
  }
  // A link is written only where it applies (the schema's rule).
  if (exported.secret_scanning_push_protection_custom_link_enabled !== true) {
    delete exported.secret_scanning_push_protection_custom_link;
  }
  return Object.keys(exported).length > 0 ? exported : undefined;
}

export const organizationSettingsKind: KindModule = {
  name: KIND,
  organization: {
    setting: {
      key: "settings",
      schema: organizationSettings,
      defines: () => [{ id: "settings", path: [], what: "the organization settings" }],
      print: () => [{ kind: KIND, name: NAME, path: [] }],
    },
    plan: ({ reader, org, value }) => plan(reader, org, value as OrganizationSettings),
    export: exportSettings,
  },
  verify,
};
