import * as z from "zod";
import type { ForgeClient } from "../../forge/client.js";
import type { ReviewedPlan } from "../ci/host.js";
import { readDigest } from "../plan-digest.js";
import { shapedList } from "../shaped-list.js";
import type { GitlabUser } from "./api.js";
import { projectPath } from "./api.js";
import { type MergeRequestRef, ownNotes } from "./merge-request-note.js";

/**
 * What a merge on GitLab was reviewed with: the plan digest in the sticky note of the merge request
 * whose merge made the commit being applied. GitLab finds it from the commit: `GET
 * /projects/:id/repository/commits/:sha/merge_requests` "returns information about the merge
 * request that originally introduced a specific commit" (doc/api/commits.md).
 */

const associatedMergeRequest = {
  name: "merge requests",
  schema: z.object({
    iid: z.number().int().positive(),
    state: z.string(),
    sha: z.string().nullable(),
    merge_commit_sha: z.string().nullable(),
    squash_commit_sha: z.string().nullable().optional(),
    web_url: z.string(),
  }),
};

/**
 * The merged merge request that made `sha`: its merge commit, its squash commit (a squash merged
 * fast-forward has no merge commit), or its head when the project merges fast-forward
 * (`merge_method: ff`, where the target branch moves to the source's head and `merge_commit_sha`
 * stays null).
 */
export async function gitlabReviewedPlan(
  client: ForgeClient,
  where: { project: string; sha: string },
  marker: string,
  author: GitlabUser,
): Promise<ReviewedPlan> {
  const { project, sha } = where;
  const listed = await shapedList(
    client,
    `${projectPath(project)}/repository/commits/${encodeURIComponent(sha)}/merge_requests`,
    associatedMergeRequest,
  );
  const merged = listed.find(
    (item) =>
      item.state === "merged" &&
      (item.merge_commit_sha === sha || item.squash_commit_sha === sha || item.sha === sha),
  );
  if (merged === undefined) {
    return {
      found: false,
      reason: `commit ${sha.slice(0, 12)} is not the merge of a merge request, so no reviewed plan belongs to it`,
    };
  }
  const ref: MergeRequestRef = { project, iid: merged.iid };
  const [note] = await ownNotes(client, ref, marker, author);
  if (note === undefined) {
    return {
      found: false,
      reason: `merge request !${merged.iid} has no forgeplan plan note by ${author.username} for this note key, so its plan was not reviewed there`,
    };
  }
  const digest = readDigest(note.body);
  if (digest === undefined) {
    return {
      found: false,
      reason: `the plan note of merge request !${merged.iid} carries no plan digest`,
    };
  }
  return { found: true, number: merged.iid, url: `${merged.web_url}#note_${note.id}`, digest };
}
