import type { Account, GithubWorld } from "../world/records.js";

/**
 * A repository name GitHub keeps as given: ASCII letters, digits, `.`, `-` and `_`, not `.` or `..`.
 * GitHub rewrites other characters to `-` ("Your new repository will be created as …" on its
 * creation page); the sandbox refuses them instead, so a client never writes a name it does not read
 * back.
 */
export function refusedName(name: string): string | undefined {
  if (/^[A-Za-z0-9._-]{1,100}$/.test(name) && name !== "." && name !== "..") return undefined;
  return `name: ${JSON.stringify(name)} is not a repository name (letters, digits, ".", "-" and "_")`;
}

/** Whether the account has a repository by this name (names are case-insensitive). */
export function nameTaken(world: GithubWorld, owner: Account, name: string): boolean {
  return world.repository(owner.login, name) !== undefined;
}
