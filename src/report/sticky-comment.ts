import type { ForgeClient } from "../forge/client.js";

/**
 * The sticky pull-request comment: one per pull request, found by the marker it starts with and
 * edited in place on every push. Pull requests take their comments through the issue endpoints.
 */

/** GitHub refuses comment and issue bodies longer than this many characters. */
export const GITHUB_BODY_LIMIT = 65_536;

export interface IssueRef {
  owner: string;
  repo: string;
  /** The issue or pull-request number. */
  number: number;
}

export interface CommentResult {
  action: "created" | "updated" | "unchanged";
  id: number;
  html_url: string;
}

interface IssueComment {
  id: number;
  body?: string | null;
  html_url: string;
}

/**
 * The hidden first line of this step's sticky comment: `<!-- forgeplan: KEY -->`, the key
 * URL-encoded (slashes kept) so it cannot end the HTML comment, and the whole line matched so one
 * key is never a prefix of another's marker.
 */
export function commentMarker(key: string): string {
  return `<!-- forgeplan: ${encodeURIComponent(key).replace(/%2F/gi, "/")} -->`;
}

export function repoPath(owner: string, repo: string): string {
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
}

/** The comment of the issue or pull request that starts with `marker`, if any. */
export async function findStickyComment(
  client: ForgeClient,
  ref: IssueRef,
  marker: string,
): Promise<{ id: number; body: string; html_url: string } | undefined> {
  const comments = await client.paginate<IssueComment>(
    `${repoPath(ref.owner, ref.repo)}/issues/${ref.number}/comments`,
  );
  const found = comments.find((comment) => startsWithLine(comment.body ?? "", marker));
  return found && { id: found.id, body: found.body ?? "", html_url: found.html_url };
}

/** A body that starts with the marker as a whole line (not a longer marker it is a prefix of). */
function startsWithLine(body: string, marker: string): boolean {
  return (
    body.startsWith(marker) &&
    (body.length === marker.length || /^\r?\n/.test(body.slice(marker.length)))
  );
}

/**
 * Creates the comment, or edits the existing one. Only a comment that *starts* with the marker is
 * ours: a reply quoting it holds the marker further in and is left alone.
 */
export async function upsertStickyComment(
  client: ForgeClient,
  ref: IssueRef,
  marker: string,
  body: string,
): Promise<CommentResult> {
  const issue = `${repoPath(ref.owner, ref.repo)}/issues/${ref.number}`;
  const existing = await findStickyComment(client, ref, marker);
  if (existing === undefined) {
    const created = await client.request<IssueComment>("POST", `${issue}/comments`, {
      body: { body },
    });
    return { action: "created", id: created.data.id, html_url: created.data.html_url };
  }
  if (existing.body === body) {
    return { action: "unchanged", id: existing.id, html_url: existing.html_url };
  }
  const updated = await client.request<IssueComment>(
    "PATCH",
    `${repoPath(ref.owner, ref.repo)}/issues/comments/${existing.id}`,
    { body: { body } },
  );
  return { action: "updated", id: updated.data.id, html_url: updated.data.html_url };
}
