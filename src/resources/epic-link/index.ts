import * as z from "zod";
import { closed, pathOrId, positiveId } from "../../config/fields.js";
import { type Change, newChange } from "../../core/plan.js";
import { changeError, mustFind, type ReadResult, type ResourceReader } from "../context.js";
import { fingerprint } from "../fingerprint.js";
import { groupPath } from "../gitlab-paths.js";
import type { KindModule } from "../kind.js";

/**
 * Related-epic links that must not exist: a clean-up, so the only action is delete. Links are found
 * from the epic's side (GitLab lists an epic's related epics, each with its `related_epic_link_id`).
 */

const epicLink = closed({
  epic: positiveId("An epic's iid in this group.").optional(),
  related: positiveId(
    "The iid of the related epic (in related_group when given, else in this group).",
  ).optional(),
  related_group: pathOrId(
    "The group of the related epic, when it is in another group.",
    "partners",
    false,
  ).optional(),
  link_id: positiveId("The id of the related-epic link.").optional(),
}).superRefine((link, context) => {
  const message = (text: string) => context.addIssue({ code: "custom", path: [], message: text });
  if (link.link_id === undefined && (link.epic === undefined || link.related === undefined)) {
    message("give epic and related (the pair of epics), or link_id");
  } else if (link.link_id !== undefined && link.related !== undefined) {
    message(
      "give either the pair of epics (epic, related) or link_id (optionally with epic), not both",
    );
  }
  if (link.related_group !== undefined && link.related === undefined) {
    message("related_group needs related");
  }
});

const epicLinksAbsent = z
  .array(
    epicLink.describe(
      "A related-epic link that must not exist: by the pair of epics, or by link id.",
    ),
  )
  .min(1)
  .describe("Related-epic links of the group's epics that must not exist; they are deleted.");

type Wanted = z.infer<typeof epicLinksAbsent>[number];

const relatedEpic = z.looseObject({
  iid: z.number().int(),
  group_id: z.number().int().optional(),
  related_epic_link_id: z.number().int(),
  link_type: z.string().nullish(),
});
type RelatedEpic = z.infer<typeof relatedEpic>;

const readGroup = z.looseObject({ id: z.number().int() });
type ReadGroup = z.infer<typeof readGroup>;

const readEpic = z.looseObject({ iid: z.number().int(), title: z.string().nullish() });

/** The link's name in addresses (plan and `validate --print` alike): `1-2`, `1-partners/2`, `link-9`. */
function linkName(wanted: Wanted): string {
  if (wanted.link_id !== undefined) return `link-${wanted.link_id}`;
  return wanted.related_group === undefined
    ? `${wanted.epic}-${wanted.related}`
    : `${wanted.epic}-${wanted.related_group}/${wanted.related}`;
}

/** What the once-only check compares: the pair in either order, or the link id. */
function linkIdentity(wanted: Wanted): string {
  if (wanted.link_id !== undefined) return `link id ${wanted.link_id}`;
  const { epic, related } = wanted as { epic: number; related: number };
  return wanted.related_group !== undefined
    ? `link from epic ${epic} to epic ${related} of group ${wanted.related_group}`
    : `link between epics ${Math.min(epic, related)} and ${Math.max(epic, related)}`;
}

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

/**
 * A group's own epics. GitLab lists the epics of every subgroup too unless told not to
 * (`include_descendant_groups`, default true since gitlab-ee!4182 "Include epics from subgroups"),
 * and their iids count in their own groups: read from this group's path they would name other
 * epics of this group, or none.
 */
const OWN_EPICS = { include_descendant_groups: "false" };

/** The iids of the group's own epics. */
async function listEpics(reader: ResourceReader, group: string | number) {
  const path = `${groupPath(group)}/epics`;
  const listed = await reader.list(path, OWN_EPICS, { name: "epics", schema: readEpic });
  if (listed.kind === "found") return listed.data.map((epic) => epic.iid);
  if (listed.kind === "error") return listed.error;
  return changeError(`group ${group} was not found`, "GET", path, 404);
}

export const epicLinkKind: KindModule = {
  name: "epic_link",
  group: {
    setting: {
      key: "epic_links_absent",
      schema: epicLinksAbsent,
      defines: (value) =>
        (value as Wanted[]).map((wanted, index) => ({
          id: linkIdentity(wanted),
          path: [index],
          what: `related-epic ${linkIdentity(wanted)}`,
        })),
      print: (value) =>
        (value as Wanted[]).map((wanted, index) => ({
          kind: "epic_link",
          name: linkName(wanted),
          path: [index],
          means: [["must be absent", true]],
        })),
    },
    plan: ({ reader, group, value }) => planEpicLinks(reader, group, value as Wanted[]),
    // Clean-ups name what must not exist: nothing of the live state is theirs to write, so the
    // group's epics are listed as a comment to pick from.
    comments: async (reader, group) => {
      const path = `${groupPath(group)}/epics`;
      const epics = mustFind(
        await reader.list(path, OWN_EPICS, { name: "epics", schema: readEpic }),
        path,
      );
      const listed = epics.map((epic) => `&${epic.iid} "${epic.title ?? ""}"`).join(", ");
      return [
        `group ${group} epics (name links between them under groups[].epic_links_absent): ${listed || "none"}`,
      ];
    },
  },
};
