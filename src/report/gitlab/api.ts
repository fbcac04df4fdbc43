import * as z from "zod";
import { firstProblem } from "../../core/zod-problem.js";
import { type ForgeClient, ForgeError } from "../../forge/client.js";

/**
 * What GitLab's notes and issues steps share: a project's API path, and the account the token acts
 * as. A note or issue is forgeplan's only when this account wrote it: anyone who can comment on a
 * merge request can write a note with the marker, and edit it later.
 */

/** `/api/v4/projects/:id`, the id numeric or a URL-encoded path (doc/api/rest/_index.md). */
export function projectPath(project: string): string {
  return `/api/v4/projects/${encodeURIComponent(project)}`;
}

/** The members of GitLab's user entity these steps compare: the id (a username can change). */
export const gitlabUser = z.object({ id: z.number().int().positive(), username: z.string() });
export type GitlabUser = z.infer<typeof gitlabUser>;

/** The account the client's token acts as: `GET /api/v4/user` (doc/api/users.md). */
export async function currentUser(client: ForgeClient): Promise<GitlabUser> {
  const path = "/api/v4/user";
  return shaped(await client.get<unknown>(path), gitlabUser, "GET", path, "user");
}

/** An answer checked against the shape of the operation; anything else is the request's error. */
export function shaped<T>(
  value: unknown,
  schema: z.ZodType<T>,
  method: "GET" | "POST" | "PUT",
  path: string,
  what: string,
): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ForgeError({
    method,
    path,
    status: 200,
    detail: `a body that is not a ${what}: ${firstProblem(parsed.error, "")}`,
    unusableAnswer: true,
  });
}
