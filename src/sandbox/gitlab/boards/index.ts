import * as z from "zod";
import { check } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { boardIds, boardsOf } from "./records.js";
import { boardRoutes } from "./routes.js";

/** Projects' issue boards (the `board` kind). */
export const boards = gitlabArea({
  name: "boards",
  seed: {
    projects: {
      boards: z
        .array(
          z.strictObject({
            id: z.number().int().positive(),
            name: z.string().min(1),
            hide_backlog_list: z.boolean().default(false),
            hide_closed_list: z.boolean().default(false),
          }),
        )
        .default([]),
    },
  },
  demo: {
    projects: [
      {
        id: 1,
        boards: [
          { id: 1, name: "Development" },
          { id: 2, name: "Legacy triage" },
        ],
      },
      { id: 2, boards: [{ id: 3, name: "Web" }] },
    ],
  },
  build(world, seed) {
    const ids = boardIds(world);
    const seen = new Set<number>();
    seed.projects.forEach((projectSeed, index) => {
      const project = world.seeded.projects[index];
      if (project === undefined) return;
      projectSeed.boards.forEach((boardSeed, boardIndex) => {
        check(
          !seen.has(boardSeed.id),
          ["projects", index, "boards", boardIndex, "id"],
          `board id ${boardSeed.id} is used twice`,
        );
        seen.add(boardSeed.id);
        boardsOf(project).set(boardSeed.id, { ...boardSeed, project });
        ids.next = Math.max(ids.next, boardSeed.id + 1);
      });
    });
  },
  routes: boardRoutes,
});
