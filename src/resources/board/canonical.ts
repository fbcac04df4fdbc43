import * as z from "zod";

/** GitLab's issue board as listed. */

export const readBoard = z.looseObject({ id: z.number().int(), name: z.string().optional() });

export type ListedBoard = z.infer<typeof readBoard>;
