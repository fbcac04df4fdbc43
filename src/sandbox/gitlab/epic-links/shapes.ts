import { planningUser } from "../world/shapes.js";
import type { Epic, EpicLink } from "./records.js";

/** GitLab v4's shapes of epics and their links, built from world objects. */

type Json = Record<string, unknown>;

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
