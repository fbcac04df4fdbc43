import { defineKind } from "../kind.js";
import { exportBoards } from "./export.js";
import { planBoards } from "./plan.js";
import { projectsSection } from "./settings.js";

/** Issue boards that must not exist in a GitLab project (`projects: [{boards_absent}]`). */
export const boardKind = defineKind({
  name: "board",
  section: {
    spec: projectsSection,
    plan: async ({ reader, entry }) => ({ changes: await planBoards(reader, entry) }),
    export: exportBoards,
  },
});
