import * as z from "zod";
import type { ResourceReader } from "../context.js";

/** GitHub's Actions or Dependabot secret as listed (never its value); an organization's has its visibility. */
const listedSecret = z.looseObject({
  name: z.string(),
  visibility: z.enum(["all", "private", "selected"]).optional(),
});
export type Listed = z.infer<typeof listedSecret>;

export function listSecrets(reader: ResourceReader, path: string) {
  return reader.list(
    path,
    undefined,
    { name: "secrets", schema: listedSecret },
    { itemsUnder: "secrets" },
  );
}
