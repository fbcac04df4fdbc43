import type { GithubWorld } from "./records.js";

/**
 * GitHub names repositories and accounts by id in the URLs it generates: the Link header of
 * `GET /repos/octocat/Spoon-Knife/issues` points at `/repositories/1300192/issues?page=2` (GitHub's
 * "Using pagination in the REST API"), that of an organization's repositories at
 * `/organizations/{id}/repos`, and that of a user's at `/user/{id}/repos` (observed answers). The
 * sandbox writes its Link URLs that way, and serves those paths as the ones they stand for.
 */

const DIGITS = /^\d{1,15}$/;

/** The path by names that an id path stands for; other paths, and unknown ids, as they are. */
export function byName(segments: string[], world: GithubWorld): string[] {
  const [head, id = "", ...rest] = segments;
  if (!DIGITS.test(id)) return segments;
  if (head === "repositories") {
    const repo = world.repositoriesById.get(Number(id));
    if (repo) return ["repos", repo.owner.login, repo.name, ...rest];
  }
  const account = world.accountsById.get(Number(id));
  if (head === "organizations" && account?.type === "Organization") {
    return ["orgs", account.login, ...rest];
  }
  if (head === "user" && account?.type === "User") return ["users", account.login, ...rest];
  return segments;
}

function decoded(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? "");
  } catch {
    return "";
  }
}

/** The id path GitHub links a list at: `/repos/o/r/hooks` → `/repositories/{id}/hooks`. */
export function byId(pathname: string, world: GithubWorld): string {
  const [, head, name, ...rest] = pathname.split("/");
  if (head === "repos" && rest.length > 1) {
    const repo = world.repository(decoded(name), decoded(rest[0]));
    if (repo) return ["", "repositories", repo.id, ...rest.slice(1)].join("/");
  }
  const account = world.account(decoded(name));
  if (account && rest.length === 1 && rest[0] === "repos") {
    if (head === "orgs" && account.type === "Organization") {
      return `/organizations/${account.id}/repos`;
    }
    if (head === "users") return `/user/${account.id}/repos`;
  }
  return pathname;
}
