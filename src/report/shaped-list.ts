import type * as z from "zod";
import { firstProblem } from "../core/zod-problem.js";
import { type ForgeClient, ForgeError } from "../forge/client.js";

/**
 * Every item of a listing (all pages), each checked against the shape of the operation's items. An
 * answer that is not that shape is an error for the request — never a comment or an issue taken
 * for someone else's (which would open another) or a pull request taken for unmerged.
 */
export async function shapedList<T>(
  client: ForgeClient,
  path: string,
  item: { name: string; schema: z.ZodType<T> },
  query: Record<string, string | number> = {},
): Promise<T[]> {
  const items = await client.paginate<unknown>(path, query);
  return items.map((value, index) => {
    const parsed = item.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new ForgeError({
      method: "GET",
      path,
      status: 200,
      detail: `a body that is not a list of ${item.name}: ${firstProblem(parsed.error, `[${index}]`)}`,
      unusableAnswer: true,
    });
  });
}
