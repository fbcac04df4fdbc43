import * as z from "zod";

/** GitLab's issue board as listed, and where a project's boards are. */

export const readBoard = z.looseObject({ id: z.number().int(), name: z.string().optional() });

export function projectPath(project: string | number): string {
  return `/api/v4/projects/${encodeURIComponent(String(project))}`;
}

export type ListedBoard = z.infer<typeof readBoard>;
