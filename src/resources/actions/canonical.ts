import * as z from "zod";
import type { Change } from "../../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import type { Location } from "../kind.js";
import type { SelectedActions } from "./settings.js";

/** What GitHub's Actions permissions endpoints answer, as far as forgeplan reads them. */

export const permissionsShape = {
  name: "Actions permissions",
  schema: z.looseObject({
    enabled: z.boolean().optional(),
    enabled_repositories: z.enum(["all", "none", "selected"]).optional(),
    allowed_actions: z.enum(["all", "local_only", "selected"]).optional(),
    sha_pinning_required: z.boolean().optional(),
  }),
};
export const selectedShape = {
  name: "Selected actions",
  schema: z.looseObject({
    github_owned_allowed: z.boolean().optional(),
    verified_allowed: z.boolean().optional(),
    patterns_allowed: z.array(z.string()).optional(),
  }),
};
export const workflowShape = {
  name: "default workflow permissions",
  schema: z.looseObject({
    default_workflow_permissions: z.enum(["read", "write"]),
    can_approve_pull_request_reviews: z.boolean(),
  }),
};
export const accessShape = {
  name: "workflow access to the repository",
  schema: z.looseObject({ access_level: z.enum(["none", "user", "organization"]) }),
};

/** What `GET /repos/{owner}/{repo}` says of who can see the repository. */
const visibilityShape = {
  name: "a Full Repository",
  schema: z.looseObject({
    private: z.boolean(),
    visibility: z.enum(["public", "private", "internal"]).optional(),
  }),
};

/**
 * Whether the repository is public: from the answer the engine located it with, else read
 * (`GET /repos/{owner}/{repo}`, once per repository and run where shared).
 */
export async function isPublic(
  site: Site,
  location: Location | undefined,
): Promise<ReadResult<boolean>> {
  const known =
    location?.kind === "found" ? visibilityShape.schema.safeParse(location.answer) : undefined;
  const answer: ReadResult<z.infer<typeof visibilityShape.schema>> = known?.success
    ? { kind: "found", data: known.data }
    : await site.reader.getOrAbsent(site.base, visibilityShape);
  if (answer.kind !== "found") return answer;
  const visibility = answer.data.visibility ?? (answer.data.private ? "private" : "public");
  return { kind: "found", data: visibility === "public" };
}

/** Where the settings live: a repository or an organization. */
export interface Site {
  reader: ResourceReader;
  scope: string;
  /** `/repos/{owner}/{repo}` or `/orgs/{org}`. */
  base: string;
  level: "repository" | "organization";
}

export function permissionsPath(site: Site): string {
  return `${site.base}/actions/permissions`;
}

/** A read's data, or the change carrying why it could not be read. */
export function readOrError<T>(
  result: ReadResult<T>,
  change: Change,
  site: Site,
  path: string,
): { data: T } | { change: Change } {
  if (result.kind === "found") return { data: result.data };
  const error =
    result.kind === "error"
      ? result.error
      : changeError(
          `${site.level} ${site.scope} was not found (or ${site.reader.credential} cannot see it)`,
          "GET",
          path,
          404,
        );
  return { change: { ...change, error } };
}

export function selectedOf(read: z.infer<typeof selectedShape.schema>): Required<SelectedActions> {
  return {
    github_owned_allowed: read.github_owned_allowed ?? false,
    verified_allowed: read.verified_allowed ?? false,
    patterns_allowed: [...new Set(read.patterns_allowed ?? [])].sort(),
  };
}

/** The written fields of `value` among `keys`, sets sorted. */
export function written<T extends object>(value: T, keys: readonly (keyof T)[]): Partial<T> {
  const result: Partial<T> = {};
  for (const key of keys) if (value[key] !== undefined) result[key] = value[key];
  return result;
}
