import { defineKind } from "../kind.js";
import { exportEpics } from "./export.js";
import { planEpicLinks } from "./plan.js";
import { groupsSection } from "./settings.js";

/** Related-epic links that must not exist in a GitLab group (`groups: [{epic_links_absent}]`). */
export const epicLinkKind = defineKind({
  name: "epic_link",
  section: {
    spec: groupsSection,
    plan: async ({ reader, entry }) => ({ changes: await planEpicLinks(reader, entry) }),
    export: exportEpics,
  },
});
