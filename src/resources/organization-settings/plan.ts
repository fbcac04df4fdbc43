import { type Change, newChange, type PlannedRequest } from "../../core/plan.js";
import { changeError, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { liveOf, organizationShape, orgPath, writtenKeys } from "./canonical.js";
import type { OrganizationSettings } from "./settings.js";

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
export const NAME = "settings";

export async function planOrganizationSettings(
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
