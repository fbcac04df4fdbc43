import { project } from "../world/shapes.js";
import type { Board } from "./records.js";

export function board(base: string, value: Board): Record<string, unknown> {
  return {
    id: value.id,
    name: value.name,
    hide_backlog_list: value.hide_backlog_list,
    hide_closed_list: value.hide_closed_list,
    project: project(base, value.project),
    lists: [],
  };
}
