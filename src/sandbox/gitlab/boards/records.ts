import { attached } from "../../core/attached.js";
import type { GitlabWorld, Project } from "../world/records.js";

/** A project's issue boards (spec endpoint 9). */
export interface Board {
  id: number;
  name: string;
  hide_backlog_list: boolean;
  hide_closed_list: boolean;
  project: Project;
}

/** A project's boards by id. */
export const boardsOf = attached((_project: Project) => new Map<number, Board>());

/** Board ids are one sequence across the world's projects. */
export const boardIds = attached((_world: GitlabWorld) => ({ next: 1 }));
