import { defineKind } from "../kind.js";
import { planBoards } from "./plan.js";
import { boardsAbsentSetting } from "./settings.js";
import { boardComments } from "./export.js";

/** Issue boards that must not exist in a GitLab project (`projects: [{project, boards_absent}]`). */
export const boardKind = defineKind({
  name: "board",
  project: {
    setting: boardsAbsentSetting,
    plan: ({ reader, at, value }) => planBoards(reader, at, value),
    comments: boardComments,
  },
});
