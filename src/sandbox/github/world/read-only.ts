import { DOCS, type Reply } from "../http.js";
import type { Match } from "../../core/router.js";
import type { GithubTypes } from "../http.js";
import type { Account, GithubWorld } from "./records.js";

/**
 * GitHub's answer to a write to an archived repository, whatever the operation: "Repository was
 * archived so is read-only." (403; quoted in integrations/terraform-provider-github#3649 and
 * eclipse-csi/otterdog#454, where a tool archived first and then failed the rest). It is checked
 * once here, in the request pipeline, for every write under `/repos/{owner}/{repo}`, so no route can
 * forget it. The one write an archived repository takes is the PATCH that unarchives it: "`false`
 * will unarchive a previously archived repository" (the operation's `archived` in @octokit/openapi).
 * A repository the caller cannot see stays hidden: its routes answer 404 as for any other.
 */
export function archivedRefusal(
  method: string,
  match: Match<GithubTypes>,
  body: () => Record<string, unknown>,
  world: GithubWorld,
  caller: Account | null,
): Reply | undefined {
  if (method === "GET") return undefined;
  const { owner, repo: name } = match.params;
  if (owner === undefined || name === undefined) return undefined;
  const repo = world.repository(owner, name);
  if (repo === undefined || !repo.archived || !world.can(repo, caller, "pull")) return undefined;
  if (unarchives(method, match, body)) return undefined;
  return {
    status: 403,
    body: { message: "Repository was archived so is read-only.", documentation_url: DOCS },
  };
}

function unarchives(
  method: string,
  match: Match<GithubTypes>,
  body: () => Record<string, unknown>,
): boolean {
  if (method !== "PATCH" || match.route.pattern !== "/repos/:owner/:repo") return false;
  try {
    return body().archived === false;
  } catch {
    // A body that is not JSON is the route's to refuse.
    return false;
  }
}
