import { defineKind, loadedOnCall } from "../kind.js";
import { planBoards } from "./plan.js";
import { boardsAbsentSetting } from "./settings.js";

/** Issue boards that must not exist in a GitLab project (`projects: [{project, boards_absent}]`). */
export const boardKind = defineKind({
  name: "board",
  project: {
    setting: boardsAbsentSetting,
    plan: ({ reader, at, value }) => planBoards(reader, at, value),
    comments: loadedOnCall(async () => (await import("./export.js")).boardComments),
  },
});
