/**
 * The names of GitHub Actions secrets and variables, shared by both kinds: "Secret names can only
 * contain alphanumeric characters ([a-z], [A-Z], [0-9]) or underscores (_)", "must not start with
 * the GITHUB_ prefix", "must not start with a number", and are not case-sensitive (GitHub's
 * "Naming your secrets"; the same rules for configuration variables). GitHub keeps them upper-cased.
 */
import * as z from "zod";
import type { RuleProblem } from "../config/spec.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A key that must be such a name (the record's key schema). */
export function actionsName(what: string) {
  return z
    .string()
    .regex(NAME, {
      error: `expected a ${what} name of letters, digits and _, not starting with a digit`,
    })
    .refine((name) => !name.toUpperCase().startsWith("GITHUB_"), {
      error: `a ${what} name must not start with GITHUB_`,
    });
}

/** The canonical name: GitHub's upper-cased spelling. */
export function canonicalName(name: string): string {
  return name.toUpperCase();
}

/** Names of one mapping that GitHub takes for the same (they differ only in case). */
function sameNameProblems(
  names: readonly string[],
  path: ReadonlyArray<string | number>,
): RuleProblem[] {
  const first = new Map<string, string>();
  return names.flatMap((name) => {
    const upper = canonicalName(name);
    const earlier = first.get(upper);
    if (earlier === undefined) {
      first.set(upper, name);
      return [];
    }
    return [
      {
        path: [...path, name],
        message: `${name} and ${earlier} are one name to GitHub, which does not tell case apart`,
        sameAs: [...path, earlier],
      },
    ];
  });
}

/** Adds an issue for every name of a mapping that another of it is to GitHub. */
export function checkNames(
  written: Record<string, unknown> | undefined,
  path: ReadonlyArray<string | number>,
  ctx: z.core.$RefinementCtx,
): void {
  for (const problem of sameNameProblems(Object.keys(written ?? {}), path)) {
    ctx.addIssue({ code: "custom", path: [...problem.path], message: problem.message });
  }
}

/** An organization's variable or secret names repositories only when it shares with selected ones. */
export function checkSharing(
  written: { visibility: string; selected_repositories?: unknown },
  ctx: z.core.$RefinementCtx,
): void {
  if (written.selected_repositories !== undefined && written.visibility !== "selected") {
    ctx.addIssue({
      code: "custom",
      path: ["selected_repositories"],
      message: "selected_repositories applies only with visibility: selected",
    });
  }
}

/** An organization's sharing of a variable or secret. */
export const visibility = z
  .enum(["all", "private", "selected"])
  .describe(
    "Which repositories of the organization may use it: all, private (private and internal ones), or selected.",
  );

export const selectedRepositories = z
  .array(z.string().min(1).describe("A repository of the organization, by name."))
  .optional()
  .describe("The repositories that may use it when visibility is selected (a set).");
