/**
 * Reviewers are written by login and team slug; GitHub's PUT takes ids. Each login is looked up
 * once per run (`GET /users/{username}`), teams through the organization's team list the rulesets
 * read too (../organization-teams.ts); a name that does not exist is an error for its environment.
 */
import * as z from "zod";
import type { ChangeError } from "../../core/plan.js";
import { changeError, type ReadResult, type ResourceReader } from "../context.js";
import { teamIdOf } from "../organization-teams.js";

const userShape = {
  name: "a user",
  schema: z.looseObject({ id: z.number().int(), login: z.string() }),
};
type User = z.infer<typeof userShape.schema>;

const users = new WeakMap<ResourceReader, Map<string, Promise<ReadResult<User>>>>();

function userRead(reader: ResourceReader, login: string): Promise<ReadResult<User>> {
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

export interface ReviewerId {
  type: "User" | "Team";
  id: number;
}

/** The ids of the reviewers, users first, or why one cannot be resolved. */
export async function reviewerIds(
  reader: ResourceReader,
  owner: string,
  reviewers: { users: readonly string[]; teams: readonly string[] },
): Promise<{ ids: ReviewerId[] } | { error: ChangeError }> {
  const ids: ReviewerId[] = [];
  for (const login of reviewers.users) {
    const read = await userRead(reader, login);
    if (read.kind === "error") return { error: read.error };
    const path = `/users/${encodeURIComponent(login)}`;
    if (read.kind === "absent" || read.data.login.toLowerCase() !== login.toLowerCase()) {
      return { error: changeError(`reviewer "${login}" is not a user`, "GET", path, 404) };
    }
    ids.push({ type: "User", id: read.data.id });
  }
  for (const slug of reviewers.teams) {
    const team = await teamIdOf(reader, owner, slug);
    if ("error" in team) return team;
    ids.push({ type: "Team", id: team.id });
  }
  return { ids };
}
