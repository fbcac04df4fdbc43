import { type Change, newChange } from "../../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import { fingerprint } from "../fingerprint.js";
import {
  groupPath,
  OWN_EPICS,
  type ReadGroup,
  readEpic,
  readGroup,
  type RelatedEpic,
  relatedEpic,
} from "./canonical.js";
import { type GroupEntry, linkName, type Wanted } from "./settings.js";

/**
 * Related-epic links that must not exist: a clean-up, so the only action is delete. Links are found
 * from the epic's side (GitLab lists an epic's related epics, each with its `related_epic_link_id`).
 */

export async function planEpicLinks(reader: ResourceReader, entry: GroupEntry): Promise<Change[]> {
  const scope = String(entry.group);
  const related = new Map<number, Promise<ReadResult<RelatedEpic[]>>>();
  const relatedOf = (iid: number) => {
    let pending = related.get(iid);
    if (!pending) {
      pending = reader.list(`${groupPath(entry.group)}/epics/${iid}/related_epics`, undefined, {
        name: "related epics",
        schema: relatedEpic,
      });
      related.set(iid, pending);
    }
    return pending;
  };
  const groupIds = new Map<string, Promise<ReadResult<ReadGroup>>>();
  const groupOf = (group: string | number) => {
    const key = String(group).toLowerCase();
    let pending = groupIds.get(key);
    if (!pending) {
      pending = reader.getOrAbsent(groupPath(group), { name: "a group", schema: readGroup });
      groupIds.set(key, pending);
    }
    return pending;
  };

  const planOne = async (wanted: Wanted): Promise<Change> => {
    const change: Change = newChange(reader.target, scope, "epic_link", linkName(wanted));
    const byId = wanted.link_id !== undefined;
    const epics =
      byId && wanted.epic === undefined
        ? await listEpics(reader, entry.group)
        : [wanted.epic as number];
    if (!Array.isArray(epics)) return { ...change, error: epics };
    let targetGroupId: number | undefined;
    if (!byId) {
      const group = await groupOf(wanted.related_group ?? entry.group);
      if (group.kind === "error") return { ...change, error: group.error };
      if (group.kind === "absent") {
        return {
          ...change,
          error: changeError(`group ${wanted.related_group ?? entry.group} was not found`),
        };
      }
      targetGroupId = group.data.id;
    }
    for (const epic of epics) {
      const listed = await relatedOf(epic);
      if (listed.kind === "error") return { ...change, error: listed.error };
      if (listed.kind === "absent") {
        if (byId && wanted.epic === undefined) continue;
        return {
          ...change,
          error: changeError(
            `epic &${epic} was not found in group ${scope}`,
            "GET",
            `${groupPath(entry.group)}/epics/${epic}/related_epics`,
            404,
          ),
        };
      }
      const link = listed.data.find((candidate) =>
        byId
          ? candidate.related_epic_link_id === wanted.link_id
          : candidate.iid === wanted.related && candidate.group_id === targetGroupId,
      );
      if (!link) continue;
      const live = {
        link_id: link.related_epic_link_id,
        epic,
        related: link.iid,
        related_group_id: link.group_id,
        link_type: link.link_type,
      };
      return {
        ...change,
        action: "delete",
        diff: [{ path: "link", before: live }],
        requests: [
          {
            method: "DELETE",
            path: `${groupPath(entry.group)}/epics/${epic}/related_epics/${link.related_epic_link_id}`,
          },
        ],
        live_fingerprint: fingerprint(live),
      };
    }
    return { ...change, live_fingerprint: fingerprint(null) };
  };
  return Promise.all(entry.epic_links_absent.map(planOne));
}

/** The iids of the group's own epics. */
async function listEpics(reader: ResourceReader, group: string | number) {
  const path = `${groupPath(group)}/epics`;
  const listed = await reader.list(path, OWN_EPICS, { name: "epics", schema: readEpic });
  if (listed.kind === "found") return listed.data.map((epic) => epic.iid);
  if (listed.kind === "error") return listed.error;
  return changeError(`group ${group} was not found`, "GET", path, 404);
}
