import { SEEDED_AT } from "../../core/seed.js";
import { accessLevelOf } from "./access-levels.js";
import type { GitlabWorld, Group, Membership, Project, User } from "./records.js";

/**
 * GitLab v4's shapes of its world's records. Every URL is absolute and starts with the sandbox's
 * own address (`base`).
 */

type Json = Record<string, unknown>;

/** A user as the planning (GitLab-style) paths show it. */
export function planningUser(base: string, user: User): Json {
  return {
    id: user.id,
    username: user.username,
    name: user.name ?? user.username,
    state: "active",
    locked: false,
    avatar_url: `${base}/avatars/u/${user.id}`,
    web_url: `${base}/${user.username}`,
  };
}

/**
 * A group as the Groups API shows it: `full_path` and `full_name` are its ancestors' and its own
 * joined (`acme/platform`, `Acme / Platform`), `parent_id` its parent's id or null (docs, "Groups
 * API", "Get a single group" and "List subgroups").
 */
export function group(base: string, value: Group): Json {
  return {
    id: value.id,
    name: value.name,
    path: value.path,
    full_path: value.fullPath,
    full_name: value.fullName,
    visibility: value.visibility,
    parent_id: value.parent?.id ?? null,
    web_url: `${base}/groups/${value.fullPath}`,
  };
}

function fullPathOf(value: Project): string {
  return `${value.group.fullPath}/${value.path}`;
}

/**
 * A project with `simple=true`: the Projects API's `BasicProjectDetails` (docs, "Projects API",
 * `simple`: "Return only limited fields for each project"), without `archived` or `visibility`.
 */
export function simpleProject(base: string, value: Project): Json {
  const fullPath = fullPathOf(value);
  const host = new URL(base).hostname;
  return {
    id: value.id,
    description: value.description,
    name: value.name,
    name_with_namespace: `${value.group.fullName} / ${value.name}`,
    path: value.path,
    path_with_namespace: fullPath,
    created_at: value.created_at,
    default_branch: value.default_branch,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${host}:${fullPath}.git`,
    http_url_to_repo: `${base}/${fullPath}.git`,
    web_url: `${base}/${fullPath}`,
    forks_count: 0,
    star_count: 0,
    last_activity_at: value.created_at,
    namespace: {
      id: value.group.id,
      name: value.group.name,
      path: value.group.path,
      kind: "group",
      full_path: value.group.fullPath,
      parent_id: value.group.parent?.id ?? null,
      web_url: `${base}/groups/${value.group.fullPath}`,
    },
  };
}

export function project(base: string, value: Project): Json {
  return { ...simpleProject(base, value), visibility: value.visibility, archived: value.archived };
}

/**
 * A project as its answer shows it: the world's fields and those the areas keep of it
 * (`GitlabArea.projectFields`), full or as `simple=true` shows it.
 */
export function projectAnswer(
  world: GitlabWorld,
  base: string,
  value: Project,
  simple = false,
): Json {
  const shape = simple ? simpleProject : project;
  return { ...shape(base, value), ...world.projectFields(value, simple) };
}

/**
 * A member as the members API shows it (docs, "Group and project members API", "List all members
 * of a group or project"): the user, its `access_level`, and `membership_state`.
 */
export function member(base: string, value: Membership): Json {
  return {
    ...planningUser(base, value.user),
    access_level: accessLevelOf(value.role),
    created_at: SEEDED_AT,
    expires_at: value.expiresAt,
    membership_state: "active",
  };
}

/**
 * A member as its answer shows it: the world's fields and those the areas keep of it, by where it
 * is a direct member (`source`: its group, else the project `record` listed).
 */
export function memberAnswer(
  world: GitlabWorld,
  base: string,
  value: Membership,
  record: Group | Project,
): Json {
  return { ...member(base, value), ...world.memberFields(value.source ?? record, value.user) };
}

/** A group as its answer shows it: the world's fields and those the areas keep of it. */
export function groupAnswer(world: GitlabWorld, base: string, value: Group): Json {
  return { ...group(base, value), ...world.groupFields(value) };
}
