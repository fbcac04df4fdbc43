import * as z from "zod";

/** GitLab's epics, related epics and groups as far as the clean-up reads them. */

export const relatedEpic = z.looseObject({
  iid: z.number().int(),
  group_id: z.number().int().optional(),
  related_epic_link_id: z.number().int(),
  link_type: z.string().nullish(),
});
export type RelatedEpic = z.infer<typeof relatedEpic>;

export const readGroup = z.looseObject({ id: z.number().int() });
export type ReadGroup = z.infer<typeof readGroup>;

export const readEpic = z.looseObject({ iid: z.number().int(), title: z.string().nullish() });

/**
 * A group's own epics. GitLab lists the epics of every subgroup too unless told not to
 * (`include_descendant_groups`, default true since gitlab-ee!4182 "Include epics from subgroups"),
 * and their iids count in their own groups: read from this group's path they would name other
 * epics of this group, or none.
 */
export const OWN_EPICS = { include_descendant_groups: "false" };
