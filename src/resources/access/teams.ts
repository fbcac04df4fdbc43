/**
 * The teams granted access to a repository, by slug. A team is keyed by its slug, as GitHub keys
 * it; one written by its display name is an error that names the slug, never a grant to make and a
 * grant to remove (the phantom add and delete of github-community-projects/safe-settings#1070).
 */
import { addressOf, type Change, type ChangeError, type PlannedRequest } from "../../core/plan.js";
import { at, changeError } from "../context.js";
import { fingerprint } from "../fingerprint.js";
import { securityManagersOf } from "./organization.js";
import type { AccessReads, LiveTeam } from "./canonical.js";
import { apiPermission } from "./roles.js";

export const TEAMS = "teams";

function teamPath(reads: AccessReads, slug: string): string {
  const { owner, name } = reads.repo;
  return `/orgs/${encodeURIComponent(reads.org)}/teams/${encodeURIComponent(slug)}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}

function baseChange(reads: AccessReads, slug: string, live: LiveTeam | undefined): Change {
  return {
    ...reads.change(`${TEAMS}/${slug.toLowerCase()}`),
    live_fingerprint: fingerprint(
      live === undefined ? null : { role: live.role, direct: live.direct },
    ),
  };
}

/** The team a written name means when it is not a slug but a team's display name, if any. */
function byDisplayName(
  teams: Iterable<{ slug: string; name: string }>,
  written: string,
): { slug: string; name: string } | undefined {
  const wanted = written.toLowerCase();
  return [...teams].find((team) => team.name.toLowerCase() === wanted);
}

function displayNameError(reads: AccessReads, written: string, slug: string): ChangeError {
  return changeError(
    `team "${written}" is written by its name: teams are keyed by slug, and its slug is ${slug}`,
    "GET",
    `${reads.path}/teams`,
    200,
  );
}

/** Why a security manager team cannot lose the repository, or the read that could not tell. */
async function securityManager(reads: AccessReads, slug: string): Promise<boolean | ChangeError> {
  const managers = await securityManagersOf(reads.reader, reads.org);
  if (managers.kind === "error") return managers.error;
  return managers.kind === "found" && managers.data.has(slug.toLowerCase());
}

const SECURITY_MANAGER =
  'is a security manager team: GitHub keeps it on every repository of the organization ("You cannot remove repositories from a security manager team")';

/** A team the configuration names, with the role it asks for (null: no grant on the repository). */
export async function planTeam(
  reads: AccessReads,
  written: string,
  wanted: string | null,
  live: LiveTeam | undefined,
  listed: readonly LiveTeam[],
): Promise<Change> {
  const base = baseChange(reads, live?.slug ?? written, live);
  if (live === undefined) {
    const named = byDisplayName(listed, written);
    if (named !== undefined)
      return { ...base, error: displayNameError(reads, written, named.slug) };
  }
  if (wanted === null) {
    if (live === undefined || !live.direct) return base;
    const manager = await securityManager(reads, live.slug);
    if (typeof manager === "object") return { ...base, error: manager };
    if (manager) {
      return {
        ...base,
        error: changeError(
          `team ${live.slug} ${SECURITY_MANAGER}`,
          "DELETE",
          teamPath(reads, live.slug),
          403,
        ),
      };
    }
    return {
      ...base,
      action: "delete",
      diff: [{ path: "role", before: live.role }],
      requests: [{ method: "DELETE", path: teamPath(reads, live.slug) }],
    };
  }
  const resolved = await reads.resolve(wanted);
  if ("error" in resolved) return { ...base, error: at(resolved.error, [TEAMS, written]) };
  if (live !== undefined) {
    if (live.role === resolved.role) return base;
    return {
      ...base,
      action: "update",
      diff: [{ path: "role", before: live.role, after: resolved.role }],
      requests: [grant(reads, live.slug, resolved.role)],
    };
  }
  const teams = await reads.orgTeams();
  if (teams.kind === "error") return { ...base, error: teams.error };
  const known = teams.kind === "found" ? teams.data : [];
  const exists = known.some((team) => team.slug.toLowerCase() === written.toLowerCase());
  const named = exists ? undefined : byDisplayName(known, written);
  if (named !== undefined) return { ...base, error: displayNameError(reads, written, named.slug) };
  return {
    ...base,
    action: "create",
    diff: [{ path: "role", after: resolved.role }],
    requests: [grant(reads, written, resolved.role)],
    ...(exists
      ? {}
      : {
          notes: [
            `${written} is not a team of ${reads.org} now: this plan creates it first (the teams of an organizations entry are created before access is granted)`,
          ],
          // Only a team this plan creates can be granted: the engine checks the plan creates it.
          needs: {
            address: addressOf(reads.reader.target, reads.org, "team", written),
            otherwise: {
              message: `team "${written}" is not a team of ${reads.org}, and this plan creates no team of that slug (an organizations entry's teams)`,
              field: [TEAMS, written],
            },
          },
        }),
  };
}

function grant(reads: AccessReads, slug: string, role: string): PlannedRequest {
  return { method: "PUT", path: teamPath(reads, slug), body: { permission: apiPermission(role) } };
}

/**
 * A team the configuration does not list, in authoritative mode: its grant is removed, unless it
 * has access through the organization only (no grant of this repository to remove) or is a
 * security manager team, which is shown as such and left alone.
 */
export async function removeTeam(reads: AccessReads, live: LiveTeam): Promise<Change | undefined> {
  const base = baseChange(reads, live.slug, live);
  const manager = await securityManager(reads, live.slug);
  if (typeof manager === "object") return { ...base, error: manager };
  if (manager) return { ...base, notes: [`team ${live.slug} ${SECURITY_MANAGER}; left alone`] };
  if (!live.direct) return undefined;
  return {
    ...base,
    action: "delete",
    diff: [{ path: "role", before: live.role }],
    requests: [{ method: "DELETE", path: teamPath(reads, live.slug) }],
    notes: [`team ${live.slug} is not in the desired state (access mode: authoritative)`],
  };
}
