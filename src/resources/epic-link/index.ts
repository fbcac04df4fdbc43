import { defineKind, loadedOnCall } from "../kind.js";
import { planEpicLinks } from "./plan.js";
import { epicLinksAbsentSetting } from "./settings.js";

/** Related-epic links that must not exist in a GitLab group (`groups: [{group, epic_links_absent}]`). */
export const epicLinkKind = defineKind({
  name: "epic_link",
  group: {
    setting: epicLinksAbsentSetting,
    plan: ({ reader, at, value }) => planEpicLinks(reader, at, value),
    comments: loadedOnCall(async () => (await import("./export.js")).epicComments),
  },
});
