/**
 * GitLab's world: its users (the seed's `users`, with the same tokens as on GitHub), groups and
 * projects, indexed by id and lower-case path so every request is a few Map look-ups. What lives in
 * a group or project (epics, boards …) is kept by its area.
 */

export type GroupRole = "guest" | "planner" | "reporter" | "developer" | "maintainer" | "owner";
const ROLE_LEVEL: Record<GroupRole, number> = {
  guest: 10,
  planner: 15,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
};

export interface User {
  id: number;
  username: string;
  name: string | null;
  /** An administrator of the instance: every group and project is open to them. */
  admin: boolean;
}

export interface Group {
  id: number;
  path: string;
  name: string;
  /** Roles by user id. */
  members: Map<number, GroupRole>;
}

export interface Project {
  id: number;
  group: Group;
  path: string;
  name: string;
  description: string;
  default_branch: string;
  created_at: string;
}

export class GitlabWorld {
  readonly users = new Map<number, User>();
  readonly usersByName = new Map<string, User>();
  readonly tokens = new Map<string, User>();
  readonly groups = new Map<number, Group>();
  readonly groupsByPath = new Map<string, Group>();
  readonly projects = new Map<number, Project>();
  readonly projectsByPath = new Map<string, Project>();
  /** The records the seed's entries made, by index: areas that add to an entry find its record. */
  readonly seeded = { groups: [] as Group[], projects: [] as Project[] };

  user(username: string): User | undefined {
    return this.usersByName.get(username.toLowerCase());
  }

  group(idOrPath: string): Group | undefined {
    return /^\d+$/.test(idOrPath)
      ? this.groups.get(Number(idOrPath))
      : this.groupsByPath.get(idOrPath.toLowerCase());
  }

  project(idOrPath: string): Project | undefined {
    return /^\d+$/.test(idOrPath)
      ? this.projects.get(Number(idOrPath))
      : this.projectsByPath.get(idOrPath.toLowerCase());
  }

  hasRole(group: Group, user: User | null, minimum: GroupRole): boolean {
    if (user === null) return false;
    if (user.admin) return true;
    const role = group.members.get(user.id);
    return role !== undefined && ROLE_LEVEL[role] >= ROLE_LEVEL[minimum];
  }
}
