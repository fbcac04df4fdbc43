import { attached } from "../../core/attached.js";
import { accessLevelOf, type Role } from "./access-levels.js";

/**
 * GitLab's world: its users (the seed's `users`, with the same tokens as on GitHub), groups (and
 * subgroups) and projects, indexed by id and lower-case full path so every request is a few Map
 * look-ups. What lives in a group or project (epics, boards …) is kept by its area.
 */

export type { Role } from "./access-levels.js";
/** A member's role in a group (a name of ACCESS_LEVELS). */
export type GroupRole = Role;

export interface User {
  id: number;
  username: string;
  name: string | null;
  /** An administrator of the instance: every group and project is open to them. */
  admin: boolean;
}

export type Visibility = "private" | "internal" | "public";

export interface Group {
  id: number;
  path: string;
  name: string;
  /** The group this one is a subgroup of; null for a top-level group. */
  parent: Group | null;
  /** `acme/platform`: the paths of its ancestors and its own, joined by `/`. */
  fullPath: string;
  /** `Acme / Platform`: the names likewise, joined by ` / `. */
  fullName: string;
  visibility: Visibility;
  /** Direct members' roles by user id (inherited ones are the ancestors'). */
  members: Map<number, Role>;
}

export interface Project {
  id: number;
  group: Group;
  path: string;
  name: string;
  description: string;
  /** null while the repository is empty: a project created without a commit has no branch. */
  default_branch: string | null;
  created_at: string;
  archived: boolean;
  visibility: Visibility;
  /** Direct members' roles by user id (inherited ones are the groups'). */
  members: Map<number, Role>;
}

/** Where a member's role comes from: the record itself, or the ancestor group that grants it. */
export interface Membership {
  user: User;
  role: Role;
  /** The group whose direct member the user is; undefined for a project's own member. */
  source: Group | undefined;
  /** When the membership ends (`YEAR-MONTH-DAY`), or null (members API, `expires_at`). */
  expiresAt: string | null;
}

/**
 * When each direct membership of a group or project ends, by user id (none: it does not). Kept
 * beside the record's `members` so every membership the world builds carries it.
 */
export const membershipExpiry = attached((_record: Group | Project) => new Map<number, string>());

/**
 * What areas add to the world's own answers (gitlab/area.ts): the fields of a project's or a
 * group's answer kept by an area (its settings), so `GET /projects/:id`, `GET /groups/:id` and the
 * listings show them as GitLab does; and the fields only a single group's answer shows.
 */
export interface GitlabWorldExtensions {
  projectFields: ReadonlyArray<
    (world: GitlabWorld, project: Project, simple: boolean) => Record<string, unknown>
  >;
  groupFields: ReadonlyArray<(world: GitlabWorld, group: Group) => Record<string, unknown>>;
  /** The fields of a single group's answer only (`GET /groups/:id`) kept by an area (its shares). */
  groupDetailFields: ReadonlyArray<(world: GitlabWorld, group: Group) => Record<string, unknown>>;
  /** The fields of a member's answer kept by an area (its custom role), by where it is a member. */
  memberFields: ReadonlyArray<
    (world: GitlabWorld, source: Group | Project, user: User) => Record<string, unknown>
  >;
}

export class GitlabWorld {
  /** The tier the sandbox runs as (tiers.ts); set once when it starts. */
  tier: "free" | "premium" | "ultimate" = "ultimate";
  /** Whether it answers as GitLab.com or a self-managed instance (tiers.ts); set when it starts. */
  offering: "self-managed" | "com" = "self-managed";
  /** How long a new member may not yet be named in a protection (joined.ts); set when it starts. */
  memberDelayMs = 0;
  /** The sandbox's clock; set when it starts. */
  now: () => number = () => Date.now();
  readonly users = new Map<number, User>();
  readonly usersByName = new Map<string, User>();
  readonly tokens = new Map<string, User>();
  readonly groups = new Map<number, Group>();
  /** By lower-case full path (`acme/platform`). */
  readonly groupsByPath = new Map<string, Group>();
  readonly projects = new Map<number, Project>();
  /** By lower-case full path (`acme/platform/infra`). */
  readonly projectsByPath = new Map<string, Project>();
  /**
   * The full paths a project had before a rename or a transfer, lower-case: GitLab keeps a
   * redirect route for each, and the API finds a project by one (lib/api/helpers.rb `find_project`:
   * `find_by_full_path(id, follow_redirects: true)`) until another project takes the path.
   */
  readonly redirects = new Map<string, Project>();
  /** The records the seed's entries made, by index: areas that add to an entry find its record. */
  readonly seeded = { groups: [] as Group[], projects: [] as Project[] };

  constructor(
    private readonly extensions: GitlabWorldExtensions = {
      projectFields: [],
      groupFields: [],
      groupDetailFields: [],
      memberFields: [],
    },
  ) {}

  /** The fields areas add to a project's answer (`simple`: the `simple=true` listing's). */
  projectFields(project: Project, simple: boolean): Record<string, unknown> {
    return Object.assign(
      {},
      ...this.extensions.projectFields.map((fields) => fields(this, project, simple)),
    );
  }

  /** The fields areas add to a group's answer. */
  groupFields(group: Group): Record<string, unknown> {
    return Object.assign({}, ...this.extensions.groupFields.map((fields) => fields(this, group)));
  }

  /** The fields areas add to the answer of a member of `source` (a group or a project). */
  memberFields(source: Group | Project, user: User): Record<string, unknown> {
    return Object.assign(
      {},
      ...this.extensions.memberFields.map((fields) => fields(this, source, user)),
    );
  }

  /** The fields areas add to a single group's answer only. */
  groupDetailFields(group: Group): Record<string, unknown> {
    return Object.assign(
      {},
      ...this.extensions.groupDetailFields.map((fields) => fields(this, group)),
    );
  }

  user(username: string): User | undefined {
    return this.usersByName.get(username.toLowerCase());
  }

  /** A group by id or full path (the URL-encoded `acme%2Fplatform` arrives decoded). */
  group(idOrPath: string): Group | undefined {
    return /^\d+$/.test(idOrPath)
      ? this.groups.get(Number(idOrPath))
      : this.groupsByPath.get(idOrPath.toLowerCase());
  }

  project(idOrPath: string): Project | undefined {
    if (/^\d+$/.test(idOrPath)) return this.projects.get(Number(idOrPath));
    const key = idOrPath.toLowerCase();
    return this.projectsByPath.get(key) ?? this.redirects.get(key);
  }

  /** A project's full path (`acme/platform/infra`). */
  fullPath(project: Project): string {
    return `${project.group.fullPath}/${project.path}`;
  }

  /**
   * Puts a project at a path (new, or moved there by a rename or transfer): its old path becomes a
   * redirect, and a redirect the new path had is dropped (GitLab's Route deletes conflicting
   * redirects when a route takes their path).
   */
  place(project: Project, group: Group, path: string): void {
    const before = this.projects.has(project.id) ? this.fullPath(project).toLowerCase() : undefined;
    project.group = group;
    project.path = path;
    const after = this.fullPath(project).toLowerCase();
    if (before !== undefined && before !== after) {
      this.projectsByPath.delete(before);
      this.redirects.set(before, project);
    }
    this.redirects.delete(after);
    this.projects.set(project.id, project);
    this.projectsByPath.set(after, project);
  }

  /**
   * A user's memberships of a group, its own and its ancestors', nearest first: GitLab's members
   * of a parent group are members of every subgroup and project below it (inheritance).
   */
  groupMemberships(group: Group): Membership[] {
    const found: Membership[] = [];
    for (let at: Group | null = group; at !== null; at = at.parent) {
      for (const [id, role] of at.members) {
        const user = this.users.get(id);
        if (user !== undefined) {
          found.push({ user, role, source: at, expiresAt: membershipExpiry(at).get(id) ?? null });
        }
      }
    }
    return found;
  }

  /**
   * Every member of a group or project, direct or inherited, once each with the highest role any
   * membership gives (GitLab's `/members/all`), in the order of their first membership.
   */
  effectiveMembers(record: Group | Project): Membership[] {
    const memberships: Membership[] =
      "group" in record
        ? [
            ...[...record.members].flatMap(([id, role]) => {
              const user = this.users.get(id);
              const expiresAt = membershipExpiry(record).get(id) ?? null;
              return user === undefined ? [] : [{ user, role, source: undefined, expiresAt }];
            }),
            ...this.groupMemberships(record.group),
          ]
        : this.groupMemberships(record);
    const best = new Map<number, Membership>();
    for (const membership of memberships) {
      const known = best.get(membership.user.id);
      if (known === undefined || accessLevelOf(membership.role) > accessLevelOf(known.role)) {
        best.set(membership.user.id, membership);
      }
    }
    return [...best.values()];
  }

  /** The user's access level in a group or project: the highest of its memberships, else 0. */
  accessLevel(record: Group | Project, user: User): number {
    let level = 0;
    const groups = "group" in record ? record.group : record;
    if ("group" in record) {
      const own = record.members.get(user.id);
      if (own !== undefined) level = accessLevelOf(own);
    }
    for (let at: Group | null = groups; at !== null; at = at.parent) {
      const role = at.members.get(user.id);
      if (role !== undefined) level = Math.max(level, accessLevelOf(role));
    }
    return level;
  }

  /** Whether the user has at least `minimum` in a group or project, directly or by inheritance. */
  hasRole(record: Group | Project, user: User | null, minimum: Role): boolean {
    if (user === null) return false;
    if (user.admin) return true;
    return this.accessLevel(record, user) >= accessLevelOf(minimum);
  }

  /** A group and every group below it, the group first, then depth first in id order. */
  descendants(group: Group): Group[] {
    const below = [...this.groups.values()]
      .filter((candidate) => candidate.parent === group)
      .sort((a, b) => a.id - b.id);
    return [group, ...below.flatMap((child) => this.descendants(child))];
  }
}
