import { type Change, newChange } from "../../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import { fingerprint } from "../fingerprint.js";
import { groupPath } from "../gitlab-paths.js";
import {
  OWN_EPICS,
  type ReadGroup,
  readEpic,
  readGroup,
  type RelatedEpic,
  relatedEpic,
} from "./canonical.js";
import { linkName, type Wanted } from "./settings.js";

/**
 * Related-epic links that must not exist: a clean-up, so the only action is delete. Links are found
 * from the epic's side (GitLab lists an epic's related epics, each with its `related_epic_link_id`).
 */

/** Plans the links of `group` (its full path or id, as written) that must not exist. */
export async function planEpicLinks(
  reader: ResourceReader,
  group: string,
  absent: readonly Wanted[],
): Promise<Change[]> {
  const scope = group;
  const related = new Map<number, Promise<ReadResult<RelatedEpic[]>>>();
  const relatedOf = (iid: number) => {
    let pending = related.get(iid);
    if (!pending) {
      pending = reader.list(`${groupPath(group)}/epics/${iid}/related_epics`, undefined, {
        name: "related epics",
        schema: relatedEpic,
      });
      related.set(iid, pending);
    }
    return pending;
  };
  const groupIds = new Map<string, Promise<ReadResult<ReadGroup>>>();
  const groupOf = (named: string | number) => {
    const key = String(named).toLowerCase();
    let pending = groupIds.get(key);
    if (!pending) {
      pending = reader.getOrAbsent(groupPath(named), { name: "a group", schema: readGroup });
      groupIds.set(key, pending);
    }
    return pending;
  };

  const planOne = async (wanted: Wanted): Promise<Change> => {
    const change: Change = newChange(reader.target, scope, "epic_link", linkName(wanted));
    const byId = wanted.link_id !== undefined;
    const epics =
      byId && wanted.epic === undefined ? await listEpics(reader, group) : [wanted.epic as number];
    if (!Array.isArray(epics)) return { ...change, error: epics };
    let targetGroupId: number | undefined;
    if (!byId) {
      const other = await groupOf(wanted.related_group ?? group);
      if (other.kind === "error") return { ...change, error: other.error };
      if (other.kind === "absent") {
        return {
          ...change,
          error: changeError(`group ${wanted.related_group ?? group} was not found`),
        };
      }
      targetGroupId = other.data.id;
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
            `${groupPath(group)}/epics/${epic}/related_epics`,
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
            path: `${groupPath(group)}/epics/${epic}/related_epics/${link.related_epic_link_id}`,
          },
        ],
        live_fingerprint: fingerprint(live),
      };
    }
    return { ...change, live_fingerprint: fingerprint(null) };
  };
  const planned = await Promise.all(absent.map(planOne));
  // Two entries may name one link (its id, and the pair of epics it joins): deleting it twice
  // would fail the second time, so the later entry is refused, as boards name one board once.
  const first = new Map<string, number>();
  return planned.map((change, index) => {
    const deleting = change.requests[0]?.path;
    if (deleting === undefined) return change;
    const earlier = first.get(deleting);
    if (earlier === undefined) {
      first.set(deleting, index);
      return change;
    }
    const linkId = deleting.slice(deleting.lastIndexOf("/") + 1);
    return {
      ...newChange(change.target, change.scope, change.kind, change.name),
      error: changeError(
        `names the same link (id ${linkId}) as the entry ${linkName(absent[earlier]!)}: list it once`,
      ),
    };
  });
}

/** The iids of the group's own epics. */
async function listEpics(reader: ResourceReader, group: string | number) {
  const path = `${groupPath(group)}/epics`;
  const listed = await reader.list(path, OWN_EPICS, { name: "epics", schema: readEpic });
  if (listed.kind === "found") return listed.data.map((epic) => epic.iid);
  if (listed.kind === "error") return listed.error;
  return changeError(`group ${group} was not found`, "GET", path, 404);
}
