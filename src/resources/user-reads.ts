import * as z from "zod";
import type { ChangeError } from "../core/plan.js";
import { changeError, type ResourceReader } from "./context.js";

/**
 * Reads that belong to a user (a user's gists, a user's migrations): who the credential is, and what
 * a refusal means. GitHub opens none of them to GitHub Apps (`enabledForGitHubApps: false` in
 * @octokit/openapi for gists/list and the migrations operations): an installation token, such as a
 * workflow's GITHUB_TOKEN, is answered 403 "Resource not accessible by integration" on them and on
 * `GET /user` (GitHub community discussion #126039 for the gists; actions/create-github-app-token#258
 * for `GET /user`).
 */

const authenticatedUser = z.looseObject({ login: z.string().min(1) });

/** The error of a user's read that was refused, with what it needs said after the service's words. */
export function needsUser(error: ChangeError, why: string): ChangeError {
  if (error.status !== 401 && error.status !== 403) return error;
  return { ...error, message: `${error.message}; ${why}` };
}

/** The login of the user the credential acts for (`GET /user`), or the error that says why none. */
export async function credentialUser(
  reader: ResourceReader,
  why: string,
): Promise<{ login: string } | { error: ChangeError }> {
  const read = await reader.getOrAbsent("/user", { name: "a user", schema: authenticatedUser });
  if (read.kind === "found") return { login: read.data.login };
  if (read.kind === "error") return { error: needsUser(read.error, why) };
  return { error: changeError(`${read.detail}; ${why}`, "GET", "/user", 404) };
}
