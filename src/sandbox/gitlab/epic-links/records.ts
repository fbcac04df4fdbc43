import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, User } from "../world/records.js";

/** A group's epics and the related-epic links between them (spec endpoint 8). */

export interface Epic {
  id: number;
  iid: number;
  group: Group;
  title: string;
  description: string;
  state: "opened" | "closed";
  author: User | null;
  created_at: string;
  updated_at: string;
}

export interface EpicLink {
  id: number;
  source: Epic;
  target: Epic;
  link_type: "relates_to" | "blocks";
  created_at: string;
  updated_at: string;
}

/** A group's epics by iid. */
export const epicsOf = attached((_group: Group) => new Map<number, Epic>());

/** The links of a world, by id and by the epics they join, and the next link's id. */
export const linksOf = attached((_world: GitlabWorld) => ({
  byId: new Map<number, EpicLink>(),
  byEpic: new Map<number, Set<EpicLink>>(),
  nextId: 1,
}));

export function addEpicLink(world: GitlabWorld, link: EpicLink): void {
  const links = linksOf(world);
  links.byId.set(link.id, link);
  for (const epic of [link.source, link.target]) {
    const set = links.byEpic.get(epic.id);
    if (set) set.add(link);
    else links.byEpic.set(epic.id, new Set([link]));
  }
}

export function removeEpicLink(world: GitlabWorld, link: EpicLink): void {
  const links = linksOf(world);
  links.byId.delete(link.id);
  links.byEpic.get(link.source.id)?.delete(link);
  links.byEpic.get(link.target.id)?.delete(link);
}

/**
 * A link as GitLab stores it: `is_blocked_by` becomes `blocks` from the other epic, so the link's
 * own answers (the DELETE's body) name the blocking epic as the source
 * (ee/spec/requests/api/related_epic_links_spec.rb: "For `is_blocked_by` we swap the source and
 * target and use `block` as type").
 */
export function storedLink(
  source: Epic,
  target: Epic,
  linkType: "relates_to" | "blocks" | "is_blocked_by",
): Pick<EpicLink, "source" | "target" | "link_type"> {
  return linkType === "is_blocked_by"
    ? { source: target, target: source, link_type: "blocks" }
    : { source, target, link_type: linkType };
}
