/**
 * What one plan of a repository's access reads, each at most once and only when needed: its direct
 * collaborators and invitations, its teams, the organization's teams and a team's members. These
 * are read afresh by every plan (an apply changes them, and the plan that verifies it must see
 * that); what forgeplan never changes is read once per run (./organization.ts, ../owners.ts).
 */
import * as z from "zod";
import {
  type Change,
  type ChangeError,
  type DiffEntry,
  newChange,
  type PlannedRequest,
} from "../../core/plan.js";
import {
  changeError,
  type ReadResult,
  repoPath,
  type RepoRef,
  type ResourceReader,
} from "../context.js";
import { ownersOf } from "../owners.js";
import { customRolesOf } from "./organization.js";
import { type BuiltInRole, builtInRole, levelOf, liveRole, ROLES } from "./roles.js";

const collaboratorShape = {
  name: "collaborators",
  schema: z.looseObject({ login: z.string().min(1), role_name: z.string().min(1) }),
};

const invitationShape = {
  name: "repository invitations",
  schema: z.looseObject({
    id: z.number().int(),
    // GitHub's schema lets the invitee be null (a deleted account): nobody can accept it.
    invitee: z.looseObject({ login: z.string().min(1) }).nullable(),
    permissions: z.enum(ROLES),
    expired: z.boolean().optional(),
    created_at: z.string(),
  }),
};

const teamShape = {
  name: "teams",
  schema: z.looseObject({
    slug: z.string().min(1),
    name: z.string(),
    permission: z.string().min(1),
    access_source: z.string().optional(),
  }),
};

const memberShape = { name: "team members", schema: z.looseObject({ login: z.string().min(1) }) };

export interface LiveInvitation {
  id: number;
  role: BuiltInRole;
  expired: boolean;
  created_at: string;
}

/** One user's direct access: a collaborator's role, an invitation, or both. */
export interface LiveUser {
  login: string;
  /** The role GitHub lists for a direct collaborator (its highest, from any grant). */
  role?: string;
  invitation?: LiveInvitation;
}

export interface LiveTeam {
  slug: string;
  name: string;
  role: string;
  /** Granted on the repository itself (`access_source: direct`), not through the organization. */
  direct: boolean;
}

/** A role resolved: as GitHub names it, and the built-in role it is or is based on. */
export interface ResolvedRole {
  role: string;
  base: BuiltInRole;
}

export class AccessReads {
  readonly #base: string;
  #users?: Promise<ReadResult<Map<string, LiveUser>>>;
  #teams?: Promise<ReadResult<Map<string, LiveTeam>>>;
  #orgTeams?: Promise<ReadResult<Array<{ slug: string; name: string }>>>;

  /**
   * `wanted`: the team grants the plan makes, and whether it removes the grants it does not list
   * (authoritative mode): what a user will have through teams once it is applied. `invitations`:
   * whose pending invitations the plan needs — every user's (`all`: an export, authoritative mode,
   * a removal to verify), or those of the logins it names; see `users`.
   */
  constructor(
    readonly reader: ResourceReader,
    readonly repo: RepoRef,
    readonly wanted: {
      teams: Readonly<Record<string, string | null>>;
      authoritative: boolean;
      invitations: "all" | { granted: readonly string[]; removed: readonly string[] };
    } = { teams: {}, authoritative: false, invitations: "all" },
  ) {
    this.#base = repoPath(repo);
  }

  /**
   * Whether the plan needs the invitations once the collaborators are known: not when every user it
   * grants a role to is a collaborator already and it removes nobody — a collaborator's role is
   * changed by a PUT whatever invitation the user has, so a repository whose desired collaborators
   * all are ones is planned from its collaborators alone (issue #29: a read only some repositories
   * need is made only for those).
   */
  #needsInvitations(collaborators: ReadonlySet<string>): boolean {
    const needed = this.wanted.invitations;
    if (needed === "all") return true;
    return (
      needed.removed.length > 0 ||
      needed.granted.some((login) => !collaborators.has(login.toLowerCase()))
    );
  }

  get org(): string {
    return this.repo.owner;
  }

  /** The scope its changes are addressed under: `owner/name`. */
  get scope(): string {
    return `${this.repo.owner}/${this.repo.name}`;
  }

  /** A change of this repository's access, a no-op until planned otherwise. */
  change(name: string): Change {
    return newChange(this.reader.target, `${this.repo.owner}/${this.repo.name}`, "access", name);
  }

  get path(): string {
    return this.#base;
  }

  #notFound(path: string): ChangeError {
    return changeError(
      `repository ${this.repo.owner}/${this.repo.name} was not found (or ${this.reader.credential} cannot see it)`,
      "GET",
      path,
      404,
    );
  }

  /**
   * Direct collaborators and the invitations of users, by lower-case login; without the invitations
   * when the plan does not need them (`wanted.invitations`).
   */
  users(): Promise<ReadResult<Map<string, LiveUser>>> {
    this.#users ??= this.#readUsers();
    return this.#users;
  }

  async #readUsers(): Promise<ReadResult<Map<string, LiveUser>>> {
    const collaboratorsPath = `${this.#base}/collaborators`;
    const invitationsPath = `${this.#base}/invitations`;
    const collaborators = await this.reader.list(
      collaboratorsPath,
      { affiliation: "direct" },
      collaboratorShape,
    );
    if (collaborators.kind === "error") return collaborators;
    if (collaborators.kind === "absent") {
      return { kind: "error", error: this.#notFound(collaboratorsPath) };
    }
    const logins = new Set(collaborators.data.map(({ login }) => login.toLowerCase()));
    const invitations: ReadResult<Array<z.infer<typeof invitationShape.schema>>> =
      this.#needsInvitations(logins)
        ? await this.reader.list(invitationsPath, undefined, invitationShape)
        : { kind: "found", data: [] };
    if (invitations.kind === "error") return invitations;
    if (invitations.kind === "absent") {
      return { kind: "error", error: this.#notFound(invitationsPath) };
    }
    const users = new Map<string, LiveUser>();
    for (const { login, role_name } of collaborators.data) {
      users.set(login.toLowerCase(), { login, role: liveRole(role_name) });
    }
    // Oldest first, so a user's latest open invitation is the one kept.
    const sorted = [...invitations.data].sort((a, b) => a.id - b.id);
    for (const item of sorted) {
      if (item.invitee === null) continue;
      const key = item.invitee.login.toLowerCase();
      const user = users.get(key) ?? { login: item.invitee.login };
      const expired = item.expired === true;
      if (user.invitation === undefined || !expired || user.invitation.expired) {
        user.invitation = {
          id: item.id,
          role: item.permissions,
          expired,
          created_at: item.created_at,
        };
      }
      users.set(key, user);
    }
    return { kind: "found", data: users };
  }

  /** The repository's teams by lower-case slug. */
  teams(): Promise<ReadResult<Map<string, LiveTeam>>> {
    this.#teams ??= this.#readTeams();
    return this.#teams;
  }

  async #readTeams(): Promise<ReadResult<Map<string, LiveTeam>>> {
    const path = `${this.#base}/teams`;
    const read = await this.reader.list(path, undefined, teamShape);
    if (read.kind === "error") return read;
    if (read.kind === "absent") return { kind: "error", error: this.#notFound(path) };
    return {
      kind: "found",
      data: new Map(
        read.data.map((team) => [
          team.slug.toLowerCase(),
          {
            slug: team.slug,
            name: team.name,
            role: liveRole(team.permission),
            direct: team.access_source === undefined || team.access_source === "direct",
          },
        ]),
      ),
    };
  }

  /** The organization's teams (to tell a slug from a display name). */
  orgTeams(): Promise<ReadResult<Array<{ slug: string; name: string }>>> {
    this.#orgTeams ??= this.reader.list(
      `/orgs/${encodeURIComponent(this.org)}/teams`,
      undefined,
      teamShape,
    );
    return this.#orgTeams;
  }

  /** A written role as the organization knows it, or why it is none. */
  async resolve(written: string): Promise<ResolvedRole | { error: ChangeError }> {
    const builtIn = builtInRole(written);
    if (builtIn !== undefined) return { role: builtIn, base: builtIn };
    const roles = await customRolesOf(this.reader, this.org);
    if (roles.kind === "error") return { error: roles.error };
    if (roles.kind === "absent") return { error: changeError(roles.detail) };
    const found = roles.data.get(written.toLowerCase());
    if (found !== undefined) return { role: found.name, base: found.base };
    const custom = [...roles.data.values()].map((role) => role.name);
    // The configuration's problem, not the read's: positioned at the role as written (`field`).
    return {
      error: {
        message:
          `role "${written}" is not a repository role: read, triage, write, maintain, admin (pull and push are read and write)` +
          (custom.length > 0
            ? `, or a custom role of ${this.org}: ${custom.join(", ")}`
            : `; ${this.org} has no custom roles`),
        field: [],
      },
    };
  }

  /**
   * The built-in role each team will have on the repository once the plan is applied: as written,
   * else as it is unless authoritative mode removes its grant. A custom role counts as none here.
   */
  async #teamsAfterPlan(): Promise<ReadResult<Map<string, BuiltInRole>>> {
    const teams = await this.teams();
    if (teams.kind !== "found") return teams;
    const after = new Map<string, BuiltInRole>();
    for (const [key, team] of teams.data) {
      if (this.wanted.authoritative && team.direct) continue;
      const role = builtInRole(team.role);
      if (role !== undefined) after.set(key, role);
    }
    for (const [written, role] of Object.entries(this.wanted.teams)) {
      const key = written.toLowerCase();
      const granted = role === null ? undefined : builtInRole(role);
      if (granted === undefined) after.delete(key);
      else after.set(key, granted);
    }
    return { kind: "found", data: after };
  }

  /**
   * Who else gives a user `role` on the repository than a direct grant, once the plan is applied:
   * an owner of the organization (admin everywhere) or a team with access to it of which the user
   * is a member (GitHub lists members of child teams too, whose access they inherit). GitHub lists
   * a collaborator's "highest role … after considering all sources of grants" ("List repository
   * collaborators"), so the role a direct grant holds under a higher one cannot be read.
   */
  async otherGrant(login: string, role: BuiltInRole): Promise<string | undefined | ChangeError> {
    const owners = await ownersOf(this.reader, this.org);
    if (owners.kind === "error") return owners.error;
    if (owners.kind === "found" && owners.data.has(login.toLowerCase())) {
      return `as an owner of ${this.org}`;
    }
    const teams = await this.#teamsAfterPlan();
    if (teams.kind !== "found") return teams.kind === "error" ? teams.error : undefined;
    for (const [slug, granted] of teams.data) {
      if (levelOf(granted) < levelOf(role)) continue;
      const path = `/orgs/${encodeURIComponent(this.org)}/teams/${encodeURIComponent(slug)}/members`;
      const members = await this.reader.list(path, undefined, memberShape);
      if (members.kind === "error") return members.error;
      const wanted = login.toLowerCase();
      if (members.kind === "found" && members.data.some((m) => m.login.toLowerCase() === wanted)) {
        return `through team ${slug}`;
      }
    }
    return undefined;
  }
}

/**
 * What a grant's answer must show: an invitation (201) the role sent, a changed invitation its new
 * role; a grant answered 204 has nothing to compare.
 */
export function verifyGrant(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (response === undefined || response === null || request.method === "DELETE") return [];
  const body = (request.body ?? {}) as { permission?: string; permissions?: string };
  const sent = body.permissions ?? body.permission;
  const answered = (response as { permissions?: unknown }).permissions;
  if (typeof answered !== "string") {
    return [{ path: "(response)", before: "a repository invitation", after: "something else" }];
  }
  // An invitation names only the five built-in roles: one for a custom role shows its base role.
  const expected = sent === undefined ? undefined : builtInRole(sent);
  if (expected === undefined || expected === answered) return [];
  return [{ path: "role", before: expected, after: answered }];
}
