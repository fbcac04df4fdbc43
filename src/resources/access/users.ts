/**
 * A repository's direct collaborators and invitations, user by user. A pending invitation counts as
 * access granted: its role is compared, and changed with a PATCH of the invitation. A role change of
 * a collaborator is one PUT of the new role ("The endpoint can also be used to change the
 * permissions of an existing collaborator without first removing and re-adding the collaborator",
 * GitHub's "Add a repository collaborator"), never a removal and a new grant, which would drop the
 * user's review requests and assignments (integrations/terraform-provider-github#2731).
 */
import { type Change, type DiffEntry, type PlannedRequest } from "../../core/plan.js";
import { at } from "../context.js";
import { fingerprint } from "../fingerprint.js";
import { knownUser } from "../logins.js";
import { ownersOf } from "../owners.js";
import type { AccessReads, LiveUser, ResolvedRole } from "./canonical.js";
import { apiPermission, builtInRole, levelOf } from "./roles.js";

export const USERS = "users";

function userPath(reads: AccessReads, login: string): string {
  return `${reads.path}/collaborators/${encodeURIComponent(login)}`;
}

function invitationPath(reads: AccessReads, id: number): string {
  return `${reads.path}/invitations/${id}`;
}

/** The live state a saved plan checks: the grant and the invitation, not how the login is spelt. */
function liveState(live: LiveUser | undefined): unknown {
  if (live === undefined) return null;
  return { role: live.role ?? null, invitation: live.invitation ?? null };
}

/** The requests that take a user's direct access away: the grant and any invitation. */
function removal(reads: AccessReads, live: LiveUser): PlannedRequest[] {
  return [
    ...(live.role !== undefined
      ? [{ method: "DELETE" as const, path: userPath(reads, live.login) }]
      : []),
    ...(live.invitation !== undefined
      ? [{ method: "DELETE" as const, path: invitationPath(reads, live.invitation.id) }]
      : []),
  ];
}

/**
 * What a removal takes away: a collaborator's role, or an invitation, pending or expired alike
 * (`- invitation: "write (pending)"`, `- invitation: "admin (expired)"`).
 */
function removed(live: LiveUser): DiffEntry[] {
  const entries: DiffEntry[] = [];
  if (live.role !== undefined) entries.push({ path: "role", before: live.role });
  if (live.invitation !== undefined) {
    const state = live.invitation.expired ? "expired" : "pending";
    entries.push({ path: "invitation", before: `${live.invitation.role} (${state})` });
  }
  return entries;
}

function grant(reads: AccessReads, login: string, role: ResolvedRole): PlannedRequest {
  return {
    method: "PUT",
    path: userPath(reads, login),
    body: { permission: apiPermission(role.role) },
  };
}

/** A user the configuration names, with the role it asks for (null: no direct access). */
export async function planUser(
  reads: AccessReads,
  written: string,
  wanted: string | null,
  live: LiveUser | undefined,
): Promise<Change> {
  const base = {
    ...reads.change(`${USERS}/${written.toLowerCase()}`),
    live_fingerprint: fingerprint(liveState(live)),
  };
  if (wanted === null) {
    if (live === undefined) return base;
    return { ...base, action: "delete", diff: removed(live), requests: removal(reads, live) };
  }
  const resolved = await reads.resolve(wanted);
  if ("error" in resolved) return { ...base, error: at(resolved.error, [USERS, written]) };
  const login = live?.login ?? written;
  if (live?.role !== undefined) {
    return planCollaborator(reads, base, { login: live.login, role: live.role }, resolved);
  }
  const invitation = live?.invitation;
  if (invitation !== undefined && !invitation.expired) {
    const custom = resolved.role !== resolved.base;
    const notes = custom
      ? [
          `${login}'s invitation shows ${invitation.role}: GitHub's invitations name only read, triage, write, maintain and admin, so one for the custom role ${resolved.role} is compared by its base role, ${resolved.base}`,
        ]
      : [];
    const withNotes = notes.length > 0 ? { ...base, notes } : base;
    if (invitation.role === resolved.base) return withNotes;
    return {
      ...withNotes,
      action: "update",
      diff: [{ path: "role", before: invitation.role, after: resolved.role }],
      requests: [
        {
          method: "PATCH",
          path: invitationPath(reads, invitation.id),
          body: { permissions: resolved.base },
        },
      ],
      notes: [
        ...notes,
        `${login} has not accepted the invitation of ${invitation.created_at} yet: the invitation's role is changed`,
      ],
    };
  }
  // Not a collaborator and not invited: the login must be a user, or the PUT fails at apply.
  const known = await knownUser(reads.reader, written, [USERS, written], "collaborator");
  if ("error" in known) return { ...base, error: known.error };
  const replaced = invitation !== undefined;
  return {
    ...base,
    action: "create",
    diff: [{ path: "role", after: resolved.role }],
    requests: [
      ...(replaced
        ? [{ method: "DELETE" as const, path: invitationPath(reads, invitation.id) }]
        : []),
      grant(reads, login, resolved),
    ],
    ...(replaced
      ? {
          notes: [
            `the invitation of ${invitation.created_at} (${invitation.role}) expired: it is deleted and a new one sent`,
          ],
        }
      : {}),
  };
}

/**
 * A collaborator whose listed role differs from the one wanted gets one PUT, unless the listed role
 * is higher and comes from elsewhere (an owner, a team): GitHub lists the highest role, so the
 * direct grant under it cannot be read, and a PUT would change nothing that shows.
 */
async function planCollaborator(
  reads: AccessReads,
  base: Change,
  live: { login: string; role: string },
  wanted: ResolvedRole,
): Promise<Change> {
  if (live.role === wanted.role) return base;
  const listed = builtInRole(live.role);
  if (listed !== undefined && levelOf(listed) > levelOf(wanted.base)) {
    const other = await reads.otherGrant(live.login, listed);
    if (typeof other === "object") return { ...base, error: other };
    if (other !== undefined) {
      return {
        ...base,
        notes: [
          `${live.login} has ${listed} ${other}; GitHub lists a collaborator's highest role, so whether the direct role is ${wanted.role} cannot be read`,
        ],
      };
    }
  }
  return {
    ...base,
    action: "update",
    diff: [{ path: "role", before: live.role, after: wanted.role }],
    requests: [grant(reads, live.login, wanted)],
  };
}

/**
 * A user with direct access the configuration does not list, in authoritative mode. Owners of the
 * organization have admin through it whatever the grant: they are left alone.
 */
export async function removeUser(reads: AccessReads, live: LiveUser): Promise<Change> {
  const base = {
    ...reads.change(`${USERS}/${live.login.toLowerCase()}`),
    live_fingerprint: fingerprint(liveState(live)),
  };
  if (live.role !== undefined) {
    const owners = await ownersOf(reads.reader, reads.org);
    if (owners.kind === "error") return { ...base, error: owners.error };
    if (owners.kind === "found" && owners.data.has(live.login.toLowerCase())) {
      return {
        ...base,
        notes: [
          `${live.login} owns ${reads.org} and has admin through it: authoritative mode does not remove owners`,
        ],
      };
    }
  }
  return {
    ...base,
    action: "delete",
    diff: removed(live),
    requests: removal(reads, live),
    notes: [`${live.login} is not in the desired state (access mode: authoritative)`],
  };
}
