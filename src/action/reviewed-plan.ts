import * as z from "zod";
import type { Plan } from "../core/plan.js";
import type { ForgeClient } from "../forge/client.js";
import { plural } from "../render/wording.js";
import {
  type DigestDifference,
  digestDifference,
  type PlanDigest,
  planDigest,
  readDigest,
} from "../report/plan-digest.js";
import { shapedList } from "../report/shaped-list.js";
import { findStickyComment, repoPath } from "../report/sticky-comment.js";

/**
 * What a merge was reviewed with: the plan digest in the sticky comment of the pull request whose
 * merge made the commit being applied. GitHub finds that pull request from the commit
 * (`GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls`: "the merged pull request that introduced
 * the commit").
 */
export type Reviewed =
  | { found: true; pullRequest: number; commentUrl: string; digest: PlanDigest }
  | { found: false; reason: string };

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
  return { found: true, pullRequest: number, commentUrl: comment.html_url, digest };
}

/** The most addresses an annotation names per kind of difference; the job summary has them all. */
const NAMED = 10;

function named(addresses: readonly string[]): string {
  const shown = addresses.slice(0, NAMED).join(", ");
  return addresses.length > NAMED ? `${shown} and ${addresses.length - NAMED} more` : shown;
}

/** How the fresh plan differs from the reviewed one, in one paragraph (an annotation's message). */
export function describeDifference(difference: DigestDifference): string {
  if (difference.unitemized) {
    return "the plans differ (the reviewed plan was too large to record its changes one by one)";
  }
  const parts = [
    ...(difference.added.length > 0
      ? [`${plural(difference.added.length, "new change")}: ${named(difference.added)}`]
      : []),
    ...(difference.changed.length > 0
      ? [
          `${plural(difference.changed.length, "change")} planned differently: ${named(difference.changed)}`,
        ]
      : []),
    ...(difference.removed.length > 0
      ? [
          `${plural(difference.removed.length, "reviewed change")} no longer planned: ${named(difference.removed)}`,
        ]
      : []),
  ];
  return parts.length > 0 ? parts.join("; ") : "the plans differ";
}

/** Whether the plan about to be applied is the one reviewed, and how it differs when it is not. */
export function compareWithReviewed(
  reviewed: PlanDigest,
  plan: Plan,
): { same: true } | { same: false; difference: DigestDifference } {
  const now = planDigest(plan);
  if (now.sha256 === reviewed.sha256) return { same: true };
  return { same: false, difference: digestDifference(reviewed, now) };
}
