/** How related-epic clean-ups are written: `groups: [{group, epic_links_absent: […]}]`. */
import * as z from "zod";
import { closed, pathOrId, positiveId } from "../../config/fields.js";
import { defineSetting } from "../../config/spec.js";

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

export type Wanted = z.output<typeof epicLinksAbsent>[number];

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

export const epicLinksAbsentSetting = defineSetting({
  key: "epic_links_absent",
  schema: epicLinksAbsent,
  defines: (value) =>
    value.map((wanted, index) => ({
      id: linkIdentity(wanted),
      path: [index],
      what: `related-epic ${linkIdentity(wanted)}`,
    })),
  print: (value) =>
    value.map((wanted, index) => ({
      kind: "epic_link",
      name: linkName(wanted),
      path: [index],
      means: [["must be absent", true]],
    })),
});
