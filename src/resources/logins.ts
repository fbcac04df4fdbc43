import * as z from "zod";
import type { ChangeError } from "../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "./context.js";

/**
 * Logins the configuration writes (collaborators, team members, environment reviewers) are checked
 * when planning, not left to fail at apply with a bare 404: `GET /users/{username}` once per login
 * and run (per reader), through the reader, so the lookups are paced, cached and in the budget.
 */

const userShape = {
  name: "a user",
  schema: z.looseObject({ id: z.number().int(), login: z.string() }),
};
export type User = z.infer<typeof userShape.schema>;

const users = new WeakMap<ResourceReader, Map<string, Promise<ReadResult<User>>>>();

export function userNamed(reader: ResourceReader, login: string): Promise<ReadResult<User>> {
  let byLogin = users.get(reader);
  if (!byLogin) {
    byLogin = new Map();
    users.set(reader, byLogin);
  }
  const key = login.toLowerCase();
  let read = byLogin.get(key);
  if (!read) {
    read = reader.getOrAbsent(`/users/${encodeURIComponent(login)}`, userShape);
    byLogin.set(key, read);
  }
  return read;
}

/**
 * The user a written login names, or the error saying it names none — positioned at `field` of the
 * kind's value, where the engine finds the file and line it was written at.
 */
export async function knownUser(
  reader: ResourceReader,
  login: string,
  field: ReadonlyArray<string | number>,
  role = "user",
): Promise<{ user: User } | { error: ChangeError }> {
  const read = await userNamed(reader, login);
  if (read.kind === "error") return { error: read.error };
  const path = `/users/${encodeURIComponent(login)}`;
  if (read.kind === "absent" || read.data.login.toLowerCase() !== login.toLowerCase()) {
    return {
      error: { ...changeError(`${role} "${login}" is not a user`, "GET", path, 404), field },
    };
  }
  return { user: read.data };
}
