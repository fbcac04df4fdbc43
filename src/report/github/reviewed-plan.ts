import * as z from "zod";
import type { ForgeClient } from "../../forge/client.js";
import type { ReviewedPlan } from "../ci/host.js";
import { readDigest } from "../plan-digest.js";
import { shapedList } from "../shaped-list.js";
import { findStickyComment, repoPath } from "../sticky-comment.js";

/**
 * What a merge was reviewed with: the plan digest in the sticky comment of the pull request whose
 * merge made the commit being applied. GitHub finds that pull request from the commit
 * (`GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls`: "the merged pull request that introduced
 * the commit").
 */
export type Reviewed = ReviewedPlan;

/** The members of GitHub's pull-request-simple that tell the merge of a commit. */
const associatedPull = {
  name: "pull requests",
  schema: z.object({
    number: z.number().int().positive(),
    merged_at: z.string().nullable(),
    merge_commit_sha: z.string().nullable(),
  }),
};

export async function reviewedPlan(
  client: ForgeClient,
  where: { owner: string; repo: string; sha: string },
  marker: string,
  authors: readonly string[],
): Promise<Reviewed> {
  const { owner, repo, sha } = where;
  const pulls = await shapedList(
    client,
    `${repoPath(owner, repo)}/commits/${encodeURIComponent(sha)}/pulls`,
    associatedPull,
  );
  const merged = pulls.find((pull) => pull.merged_at !== null && pull.merge_commit_sha === sha);
  if (merged === undefined) {
    return {
      found: false,
      reason: `commit ${sha.slice(0, 12)} is not the merge of a pull request, so no reviewed plan belongs to it`,
    };
  }
  const number = merged.number;
  const comment = await findStickyComment(client, { owner, repo, number }, marker, authors);
  if (comment === undefined) {
    return {
      found: false,
      reason: `pull request #${number} has no forgeplan plan comment by ${authors.join(" or ")} for this comment-key, so its plan was not reviewed there`,
    };
  }
  const digest = readDigest(comment.body);
  if (digest === undefined) {
    return {
      found: false,
      reason: `the plan comment of pull request #${number} carries no plan digest (an older forgeplan wrote it)`,
    };
  }
  return { found: true, number, url: comment.html_url, digest };
}
