import { type Change, newChange, type PlannedRequest } from "../../core/plan.js";
import { repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { type CanonicalPages, desiredOf, liveOf, PAGES_SHAPE } from "./canonical.js";
import type { PagesSettings } from "./settings.js";

/**
 * A repository's GitHub Pages site, one resource: read with `GET /repos/{owner}/{repo}/pages` (404:
 * no site), created with `POST` (its build and source) and, in the same change, a `PUT` of the
 * custom domain and HTTPS (the create takes neither); changed with one `PUT` of what differs; `null`
 * deletes it with `DELETE`, applied only with --allow-delete like every delete. Only the fields
 * written are compared, but the build type, which decides what the others mean.
 */

const KIND = "pages";

export const pagesPath = (repo: RepoRef) => `${repoPath(repo)}/pages`;

/** The PUT of what differs; the source travels whole, as the operation requires branch and path. */
function update(
  path: string,
  desired: CanonicalPages,
  live: CanonicalPages | undefined,
): PlannedRequest | undefined {
  const body: Record<string, unknown> = {};
  if (live === undefined || live.build_type !== desired.build_type)
    body.build_type = desired.build_type;
  if (desired.source && JSON.stringify(desired.source) !== JSON.stringify(live?.source))
    body.source = desired.source;
  if (desired.cname !== undefined && desired.cname !== (live?.cname ?? null))
    body.cname = desired.cname;
  if (desired.https_enforced !== undefined && desired.https_enforced !== live?.https_enforced) {
    body.https_enforced = desired.https_enforced;
  }
  return Object.keys(body).length === 0 ? undefined : { method: "PUT", path, body };
}

export async function planPages(
  reader: ResourceReader,
  at: RepoRef,
  value: PagesSettings,
): Promise<Change[]> {
  const change = newChange(reader.target, `${at.owner}/${at.name}`, KIND, "site");
  const path = pagesPath(at);
  const read = await reader.getOrAbsent(path, PAGES_SHAPE);
  if (read.kind === "error") return [{ ...change, error: read.error }];
  if (value === null) {
    if (read.kind === "absent") return [{ ...change, live_fingerprint: fingerprint(null) }];
    const live = liveOf(read.data, { cname: null, https_enforced: false });
    return [
      {
        ...change,
        action: "delete",
        diff: diffValues(live, {}),
        requests: [{ method: "DELETE", path }],
        live_fingerprint: fingerprint(live),
        notes: ["null in the desired state: the site is unpublished"],
      },
    ];
  }
  const desired = desiredOf(value);
  if (read.kind === "absent") {
    const create: PlannedRequest = {
      method: "POST",
      path,
      body: {
        build_type: desired.build_type,
        ...(desired.source ? { source: desired.source } : {}),
      },
    };
    // GitHub's new site enforces HTTPS and has no custom domain.
    const rest = update(path, desired, {
      build_type: desired.build_type,
      ...(desired.source ? { source: desired.source } : {}),
      cname: null,
      https_enforced: true,
    });
    return [
      {
        ...change,
        action: "create",
        diff: diffValues({}, desired),
        requests: rest === undefined ? [create] : [create, rest],
        live_fingerprint: fingerprint(null),
      },
    ];
  }
  const live = liveOf(read.data, value);
  const diff = diffValues(live, desired);
  const planned = { ...change, live_fingerprint: fingerprint(live) };
  const request = update(path, desired, live);
  if (diff.length === 0 || request === undefined) return [planned];
  return [{ ...planned, action: "update", diff, requests: [request] }];
}
