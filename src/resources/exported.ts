import type * as z from "zod";
import { firstProblem } from "../core/zod-problem.js";
import { changeError, readFailure } from "./context.js";

/**
 * A value export built from what the service answered, checked against the setting's schema: one
 * of a shape the configuration cannot hold fails the export (its read named), never a file that
 * does not load. A value refused only by a rule across its fields (`members_can_create_repositories:
 * true` with every kind false) is kept: the engine writes such a combination in a form the loader
 * accepts, with a comment (src/engine/export-accepted.ts). It is kept as built, in the order export
 * writes it (a parse would reorder its keys).
 */
export function exported<S extends z.ZodType>(schema: S, value: unknown, path: string): z.input<S> {
  const problem = schema.safeParse(value).error;
  if (problem === undefined || problem.issues.every((issue) => issue.code === "custom")) {
    return value as z.input<S>;
  }
  throw readFailure(
    changeError(
      `answered what the configuration cannot hold: ${problem ? firstProblem(problem) : "(no problem named)"}`,
      "GET",
      path,
      200,
    ),
  );
}
