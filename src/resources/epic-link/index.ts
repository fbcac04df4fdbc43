import { defineKind } from "../kind.js";
import { planEpicLinks } from "./plan.js";
import { epicLinksAbsentSetting } from "./settings.js";
import { epicComments } from "./export.js";

/** Related-epic links that must not exist in a GitLab group (`groups: [{group, epic_links_absent}]`). */
export const epicLinkKind = defineKind({
  name: "epic_link",
  group: {
    setting: epicLinksAbsentSetting,
    plan: ({ reader, at, value }) => planEpicLinks(reader, at, value),
    comments: epicComments,
  },
});
