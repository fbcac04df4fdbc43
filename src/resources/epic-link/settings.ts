/** How related-epic clean-ups are written: `groups: [{group, epic_links_absent: […]}]`. */
import * as z from "zod";
import { closed, pathOrId, positiveId, targetReference } from "../../config/fields.js";
import { defineSection } from "../../config/spec.js";

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

const groupEntry = closed({
  group: pathOrId("The group: numeric id or full path such as acme.", "acme", false),
  target: targetReference("planning"),
  epic_links_absent: z
    .array(
      epicLink.describe(
        "A related-epic link that must not exist: by the pair of epics, or by link id.",
      ),
    )
    .min(1)
    .describe("Related-epic links that must not exist; they are deleted."),
}).describe("Clean-ups in one group.");

export type GroupEntry = z.infer<typeof groupEntry>;
export type Wanted = GroupEntry["epic_links_absent"][number];

/** The link's name in addresses (plan and `validate --print` alike): `1-2`, `1-partners/2`, `link-9`. */
export function linkName(wanted: Wanted): string {
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

/** Numeric ids and paths compare as written; paths case-insensitively. */
function identity(value: string | number): string {
  return typeof value === "number" ? `#${value}` : value.toLowerCase();
}

export const groupsSection = defineSection({
  at: ["groups"],
  entry: groupEntry,
  list: true,
  description: "Planning-side clean-ups per group.",
  targetType: "planning",
  noun: ["group", "groups"],
  scope: (entry) => String(entry.group),
  defines: ({ group, epic_links_absent }) =>
    epic_links_absent.map((wanted, index) => ({
      id: `${identity(group)}|${linkIdentity(wanted)}`,
      path: ["epic_links_absent", index],
      what: `related-epic ${linkIdentity(wanted)} in group ${group}`,
    })),
  print: (entry) =>
    entry.epic_links_absent.map((wanted, index) => ({
      kind: "epic_link",
      name: linkName(wanted),
      path: ["epic_links_absent", index],
      fixed: [["must be absent", true]],
    })),
});
