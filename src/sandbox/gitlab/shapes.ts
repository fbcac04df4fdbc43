import type { Account, Board, Epic, EpicLink, Project } from "../core/world.js";

/**
 * The response shapes of the planning paths (GitLab v4), built from world objects. Every URL is
 * absolute and starts with the sandbox's own address (`base`).
 */

type Json = Record<string, unknown>;

/** A user as the planning (GitLab-style) paths show it. */
export function planningUser(base: string, account: Account): Json {
  return {
    id: account.id,
    username: account.login,
    name: account.name ?? account.login,
    state: "active",
    locked: false,
    avatar_url: `${base}/avatars/u/${account.id}`,
    web_url: `${base}/${account.login}`,
  };
}

export function group(base: string, value: Epic["group"]): Json {
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

export function epic(base: string, value: Epic): Json {
  const groupUrl = `${base}/api/v4/groups/${value.group.id}`;
  return {
    id: value.id,
    work_item_id: value.id,
    iid: value.iid,
    group_id: value.group.id,
    title: value.title,
    description: value.description,
    confidential: false,
    state: value.state,
    color: "#1068bf",
    text_color: "#FFFFFF",
    imported: false,
    ...(value.author ? { author: planningUser(base, value.author) } : {}),
    web_url: `${base}/groups/${value.group.path}/-/epics/${value.iid}`,
    references: [{ reference: `&${value.iid}` }, { reference: `${value.group.path}&${value.iid}` }],
    labels: [],
    upvotes: 0,
    downvotes: 0,
    subscribed: false,
    created_at: value.created_at,
    updated_at: value.updated_at,
    _links: {
      self: `${groupUrl}/epics/${value.iid}`,
      epic_issues: `${groupUrl}/epics/${value.iid}/issues`,
      group: groupUrl,
    },
  };
}

const INVERSE_LINK = { relates_to: "relates_to", blocks: "is_blocked_by" };

/** An entry of `GET …/related_epics`: the other epic, with the link as seen from `from`. */
export function relatedEpic(base: string, link: EpicLink, from: Epic): Json {
  const outgoing = link.source.id === from.id;
  return {
    ...epic(base, outgoing ? link.target : link.source),
    related_epic_link_id: link.id,
    link_type: outgoing ? link.link_type : INVERSE_LINK[link.link_type],
    link_created_at: link.created_at,
    link_updated_at: link.updated_at,
  };
}

export function epicLink(base: string, link: EpicLink): Json {
  return {
    id: link.id,
    source_epic: epic(base, link.source),
    target_epic: epic(base, link.target),
    link_type: link.link_type,
    created_at: link.created_at,
    updated_at: link.updated_at,
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

export function board(base: string, value: Board): Json {
  return {
    id: value.id,
    name: value.name,
    hide_backlog_list: value.hide_backlog_list,
    hide_closed_list: value.hide_closed_list,
    project: project(base, value.project),
    lists: [],
  };
}
