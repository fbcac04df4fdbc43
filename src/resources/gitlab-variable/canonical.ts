/** A CI/CD variable as GitLab answers it, as forgeplan compares it, and what a write must read back. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import type { ReadResult, ResourceReader } from "../context.js";
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

/** Where the instance's variables are listed and created (doc/api/instance_level_ci_variables.md). */
export const INSTANCE_PATH = "/api/v4/admin/ci/variables";

/**
 * An instance variable as GitLab answers it: the same entity (Entities::Ci::Variable) without
 * `environment_scope` and `hidden`, which it exposes only `if` the record responds to them, and
 * Ci::InstanceVariable has neither; its value is always there. Compared as a variable of the
 * scope `*`, never hidden.
 */
const readInstanceVariable = z.looseObject({
  key: z.string(),
  value: z.string(),
  variable_type: z.enum(["env_var", "file"]),
  protected: z.boolean(),
  masked: z.boolean(),
  raw: z.boolean(),
  description: z.string().nullable(),
});

const INSTANCE_SHAPE = { name: "instance CI/CD variables", schema: readInstanceVariable };

/**
 * Every instance variable, uncached as a place's are. GitLab's `authenticated_as_admin!` answers
 * anyone else 403 "403 Forbidden" (lib/api/admin/ci/variables.rb, lib/api/helpers.rb): the error
 * says whose token that takes.
 */
export async function listInstanceVariables(
  reader: ResourceReader,
): Promise<ReadResult<ReadVariable[]>> {
  const listed = await reader.list(INSTANCE_PATH, { per_page: 100 }, INSTANCE_SHAPE, {
    uncached: true,
  });
  if (listed.kind === "error" && listed.error.status === 403) {
    const message = `${listed.error.message} (the instance's variables take an administrator's token; target ${reader.target}'s is not one)`;
    return { ...listed, error: { ...listed.error, message } };
  }
  if (listed.kind !== "found") return listed;
  const data: ReadVariable[] = listed.data.map((live) => ({ ...live, environment_scope: "*" }));
  return { kind: "found", data };
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
  const shape = request.path.startsWith(INSTANCE_PATH) ? readInstanceVariable : readVariable;
  const parsed = shape.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "a CI/CD variable", after: "something else" }];
  }
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const wanted: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  for (const field of [...FLAGS, "environment_scope"] as const) {
    if (sent[field] === undefined) continue;
    wanted[field] = sent[field];
    kept[field] = (parsed.data as Record<string, unknown>)[field];
  }
  if (sent.masked_and_hidden === true) {
    wanted.hidden = true;
    kept.hidden = (parsed.data as { hidden?: boolean }).hidden ?? false;
  }
  return diffValues(wanted, kept);
}
