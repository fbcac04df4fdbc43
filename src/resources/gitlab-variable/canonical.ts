/** A CI/CD variable as GitLab answers it, as forgeplan compares it, and what a write must read back. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import type { ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";

/**
 * GitLab's Ci::Variable entity (lib/api/entities/ci/variable.rb): `value` is null for a hidden
 * variable (`Ci::VariableValue#evaluate`), `hidden` is there since GitLab 17.4. An answer without
 * `hidden` is an older GitLab's, whose variables are never hidden.
 */
export const readVariable = z.looseObject({
  key: z.string(),
  value: z.string().nullable(),
  variable_type: z.enum(["env_var", "file"]),
  protected: z.boolean(),
  masked: z.boolean(),
  hidden: z.boolean().optional(),
  raw: z.boolean(),
  environment_scope: z.string(),
  description: z.string().nullable(),
});
export type ReadVariable = z.infer<typeof readVariable>;

const VARIABLE_SHAPE = { name: "CI/CD variables", schema: readVariable };

/**
 * Every variable of a place: GitLab pages them by offset, at most 100 a page (doc/api/
 * project_level_variables.md, "List project variables"). Never kept in a cache: the answer holds
 * values the run may not know as secrets (a variable not written, the value a change replaces).
 */
export function listVariables(reader: ResourceReader, path: string) {
  return reader.list(path, { per_page: 100 }, VARIABLE_SHAPE, { uncached: true });
}

/** The fields compared besides the value (which is compared apart, never shown). */
export interface CanonicalFlags {
  variable_type: "env_var" | "file";
  protected: boolean;
  masked: boolean;
  masked_and_hidden: boolean;
  raw: boolean;
  description: string | null;
}

export function flagsOf(live: ReadVariable): CanonicalFlags {
  return {
    variable_type: live.variable_type,
    protected: live.protected,
    masked: live.masked,
    masked_and_hidden: live.hidden === true,
    raw: live.raw,
    description: live.description,
  };
}

const FLAGS = ["variable_type", "protected", "masked", "raw", "description"] as const;

/**
 * What the answer to a create or an edit lacks of what was sent: the flags and the scope, and a
 * hidden variable's `hidden`. The value is sent as a reference resolved only when the request
 * leaves, so it is not compared here (the next plan compares it), and never quoted.
 */
export function verifyVariable(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const parsed = readVariable.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "a CI/CD variable", after: "something else" }];
  }
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const wanted: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  for (const field of [...FLAGS, "environment_scope"] as const) {
    if (sent[field] === undefined) continue;
    wanted[field] = sent[field];
    kept[field] = parsed.data[field];
  }
  if (sent.masked_and_hidden === true) {
    wanted.hidden = true;
    kept.hidden = parsed.data.hidden ?? false;
  }
  return diffValues(wanted, kept);
}
