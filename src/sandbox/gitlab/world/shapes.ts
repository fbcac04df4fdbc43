import type { Group, Project, User } from "./records.js";

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

export function group(base: string, value: Group): Json {
  return {
    id: value.id,
    name: value.name,
    path: value.path,
    full_path: value.path,
    full_name: value.name,
    visibility: "private",
    parent_id: null,
    web_url: `${base}/groups/${value.path}`,
  };
}

export function project(base: string, value: Project): Json {
  const fullPath = `${value.group.path}/${value.path}`;
  const host = new URL(base).hostname;
  return {
    id: value.id,
    description: value.description,
    name: value.name,
    name_with_namespace: `${value.group.name} / ${value.name}`,
    path: value.path,
    path_with_namespace: fullPath,
    default_branch: value.default_branch,
    ssh_url_to_repo: `git@${host}:${fullPath}.git`,
    http_url_to_repo: `${base}/${fullPath}.git`,
    web_url: `${base}/${fullPath}`,
    visibility: "private",
    created_at: value.created_at,
    last_activity_at: value.created_at,
    tag_list: [],
    topics: [],
    forks_count: 0,
    star_count: 0,
    namespace: {
      id: value.group.id,
      name: value.group.name,
      path: value.group.path,
      kind: "group",
      full_path: value.group.path,
      web_url: `${base}/groups/${value.group.path}`,
    },
  };
}
