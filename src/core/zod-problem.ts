import type * as z from "zod";

/**
 * Where a value first differs from its shape, and how: `rules[2].parameters.max_file_size: Invalid
 * input` (the path after `prefix`), or the message alone when the value itself is wrong.
 */
export function firstProblem(error: z.ZodError, prefix = ""): string {
  const issue = error.issues[0];
  const path = (issue?.path ?? [])
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("");
  const at = `${prefix}${path}`.replace(/^\./, "");
  const message = issue?.message ?? "invalid";
  return at === "" ? message : `${at}: ${message}`;
}
