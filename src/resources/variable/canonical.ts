import * as z from "zod";
import type { ResourceReader } from "../context.js";

/** GitHub's Actions variable as listed; an organization's has its visibility. */
const listedVariable = z.looseObject({
  name: z.string(),
  value: z.string(),
  visibility: z.enum(["all", "private", "selected"]).optional(),
});
export type Listed = z.infer<typeof listedVariable>;

/** GitHub's variables lists take at most 30 a page (`variables-per-page`). */
const PER_PAGE = 30;

export function listVariables(reader: ResourceReader, path: string) {
  return reader.list(
    path,
    { per_page: PER_PAGE },
    { name: "variables", schema: listedVariable },
    { itemsUnder: "variables" },
  );
}
