/**
 * Reviewers are written by login and team slug; GitHub's PUT takes ids. Each login is looked up
 * once per run (`GET /users/{username}`), teams through the organization's team list the rulesets
 * read too (../organization-teams.ts); a name that does not exist is an error for its environment.
 */
import type { ChangeError } from "../../core/plan.js";
import type { ResourceReader } from "../context.js";
import { knownUser } from "../logins.js";
import { teamIdOf } from "../organization-teams.js";

export interface ReviewerId {
  type: "User" | "Team";
  id: number;
}

/**
 * The ids of the reviewers, users first, or why one cannot be resolved; `at` is where the written
 * reviewers sit in the kind's value (`[production, reviewers]`), `written` the users as written.
 */
export async function reviewerIds(
  reader: ResourceReader,
  owner: string,
  reviewers: { users: readonly string[]; teams: readonly string[] },
  at: ReadonlyArray<string | number>,
  written: readonly string[] = [],
): Promise<{ ids: ReviewerId[] } | { error: ChangeError }> {
  const ids: ReviewerId[] = [];
  for (const login of reviewers.users) {
    const index = written.findIndex((name) => name.toLowerCase() === login.toLowerCase());
    const field = index < 0 ? [...at, "users"] : [...at, "users", index];
    const found = await knownUser(reader, login, field, "reviewer");
    if ("error" in found) return found;
    ids.push({ type: "User", id: found.user.id });
  }
  for (const slug of reviewers.teams) {
    const team = await teamIdOf(reader, owner, slug);
    if ("error" in team) return team;
    ids.push({ type: "Team", id: team.id });
  }
  return { ids };
}
