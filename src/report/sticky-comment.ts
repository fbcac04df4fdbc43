import * as z from "zod";
import type { ForgeClient } from "../forge/client.js";
import { shapedList } from "./shaped-list.js";

/**
 * The sticky pull-request comment: one per pull request, found by the marker it starts with and
 * the account that wrote it, and edited in place on every push. Pull requests take their comments
 * through the issue endpoints.
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
  /** The account the service says wrote the comment. */
  author: string | undefined;
}

/** The members of GitHub's issue-comment the sticky comment needs. */
const issueComment = {
  name: "issue comments",
  schema: z.object({
    id: z.number().int().positive(),
    body: z.string().nullish(),
    html_url: z.string(),
    user: z.object({ login: z.string() }).nullable(),
  }),
};
type IssueComment = z.infer<typeof issueComment.schema>;

/** Whether two logins name one account: GitHub's logins are case-insensitive. */
export function sameLogin(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase();
}

/** The account the workflow's own token (`GITHUB_TOKEN`) writes comments as, on GitHub. */
export const ACTIONS_BOT = "github-actions[bot]";

/**
 * The login the comments and issues `client` posts are written by: its App's bot when it signs in
 * as an App, else the account `GET /user` names for a personal or OAuth token. An installation
 * token given as a token cannot read `GET /user` (GitHub answers 403 "Resource not accessible by
 * integration"); the workflow's `GITHUB_TOKEN`, the usual one, writes as `github-actions[bot]`, and
 * another App's bot must be named (the Action's `comment-author` input).
 *
 * Anyone who can read a pull request can comment on it, marker and all, and can edit their own
 * comment or issue later: one counts as forgeplan's only when this account wrote it.
 */
export async function commentAuthor(client: ForgeClient): Promise<string> {
  return (await client.login()) ?? ACTIONS_BOT;
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

/**
 * The comment of the issue or pull request that starts with `marker` and that one of `authors`
 * wrote — the first author's if there is one, else the next's — if any.
 */
export async function findStickyComment(
  client: ForgeClient,
  ref: IssueRef,
  marker: string,
  authors: readonly string[],
): Promise<{ id: number; body: string; html_url: string } | undefined> {
  const comments = (
    await shapedList(
      client,
      `${repoPath(ref.owner, ref.repo)}/issues/${ref.number}/comments`,
      issueComment,
    )
  ).filter((comment) => startsWithLine(comment.body ?? "", marker));
  for (const author of authors) {
    const found = comments.find((comment) => sameLogin(comment.user?.login, author));
    if (found) return { id: found.id, body: found.body ?? "", html_url: found.html_url };
  }
  return undefined;
}

/** A body that starts with the marker as a whole line (not a longer marker it is a prefix of). */
export function startsWithLine(body: string, marker: string): boolean {
  return (
    body.startsWith(marker) &&
    (body.length === marker.length || /^\r?\n/.test(body.slice(marker.length)))
  );
}

/**
 * Creates the comment, or edits the existing one. Only a comment `author` wrote that *starts* with
 * the marker is ours: a reply quoting it holds the marker further in, and a comment someone else
 * wrote with the marker is theirs; both are left alone.
 */
export async function upsertStickyComment(
  client: ForgeClient,
  ref: IssueRef,
  marker: string,
  author: string,
  body: string,
): Promise<CommentResult> {
  const issue = `${repoPath(ref.owner, ref.repo)}/issues/${ref.number}`;
  const existing = await findStickyComment(client, ref, marker, [author]);
  if (existing === undefined) {
    const created = await client.request<IssueComment>("POST", `${issue}/comments`, {
      body: { body },
    });
    const result: CommentResult = {
      action: "created",
      id: created.data.id,
      html_url: created.data.html_url,
      author: created.data.user?.login,
    };
    return await keepOldest(client, ref, marker, author, body, result);
  }
  return await edit(client, ref, existing, author, body);
}

async function edit(
  client: ForgeClient,
  ref: IssueRef,
  existing: { id: number; body: string; html_url: string },
  author: string,
  body: string,
): Promise<CommentResult> {
  if (existing.body === body) {
    return { action: "unchanged", id: existing.id, html_url: existing.html_url, author };
  }
  const updated = await client.request<IssueComment>(
    "PATCH",
    `${repoPath(ref.owner, ref.repo)}/issues/comments/${existing.id}`,
    { body: { body } },
  );
  return { action: "updated", id: updated.data.id, html_url: updated.data.html_url, author };
}

/**
 * Two runs for one pull request (two pushes close together) can each find no comment and each
 * create one: nothing on GitHub makes find-then-create atomic. GitHub lists an issue's comments "by
 * ascending ID" (issues/list-comments), so every run agrees which of them is the oldest without
 * talking to the others: a run whose new comment is not the oldest moves its body there and
 * deletes its own, and one comment is left however many raced (the fix of the same race in
 * buildinternet/uploads#554; serialising the workflow with `concurrency:` avoids it altogether).
 */
async function keepOldest(
  client: ForgeClient,
  ref: IssueRef,
  marker: string,
  author: string,
  body: string,
  created: CommentResult,
): Promise<CommentResult> {
  const oldest = await findStickyComment(client, ref, marker, [author]);
  if (oldest === undefined || oldest.id >= created.id) return created;
  // The body goes to the oldest first, so a delete that fails leaves a duplicate, never a loss.
  const kept = await edit(client, ref, oldest, author, body);
  await client.request("DELETE", `${repoPath(ref.owner, ref.repo)}/issues/comments/${created.id}`);
  return kept;
}
