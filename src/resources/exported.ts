import type * as z from "zod";
import { firstProblem } from "../core/zod-problem.js";
import { changeError, readFailure } from "./context.js";

/**
 * A value export built from what the service answered, checked against the setting's schema: one
 * the configuration cannot hold fails the export (its read named), never a file that does not
 * load. It is kept as built, in the order export writes it (a parse would reorder its keys).
 */
export function exported<S extends z.ZodType>(schema: S, value: unknown, path: string): z.input<S> {
  if (accepts(schema, value)) return value;
  const problem = schema.safeParse(value).error;
  throw readFailure(
    changeError(
      `answered what the configuration cannot hold: ${problem ? firstProblem(problem) : "(no problem named)"}`,
      "GET",
      path,
      200,
    ),
  );
}

function accepts<S extends z.ZodType>(schema: S, value: unknown): value is z.input<S> {
  return schema.safeParse(value).success;
}
