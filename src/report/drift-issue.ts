import type { Plan } from "../core/plan.js";
import * as z from "zod";
import type { ForgeClient } from "../forge/client.js";
import { shapedList } from "./shaped-list.js";
import { repoPath, sameLogin } from "./sticky-comment.js";

/**
 * The drift issue: a single open issue, found by the marker its body starts with and the account
 * that opened it (anyone may open an issue with the marker, and edit it later), that says what
 * drifted. It is opened when drift appears, edited while drift stays, and closed with a comment once
 * live state matches the desired state again. When drift comes back after that, a new issue is opened,
 * so each episode keeps its own history.
 */

export const DRIFT_MARKER = "<!-- forgeplan-drift -->";
export const DRIFT_TITLE = "forgeplan: live settings drifted from the desired state";

/** Drift is anything the plan would change, and any audit finding. */
export function hasDrift(plan: Plan): boolean {
  const { create, update, delete: deletes, report } = plan.summary;
  return create + update + deletes + report > 0;
}

export interface DriftIssueInput {
  owner: string;
  repo: string;
  drifted: boolean;
  /** The login the client writes as: only an issue it opened is the drift issue. */
  author: string;
  /** The body when drifted: the plan as markdown, within GitHub's 65,536-character limit. */
  body: string;
  /** What the closing comment says, e.g. "No drift at 2026-01-05T03:00:00Z." */
  resolvedNote: string;
}

export interface DriftIssueResult {
  action: "opened" | "updated" | "unchanged" | "closed" | "none";
  number?: number;
  html_url?: string;
  /** The account the service says opened the issue, when this call opened it. */
  openedBy?: string;
}

/** The members of GitHub's issue the drift issue needs. */
const issueShape = {
  name: "issues",
  schema: z.object({
    number: z.number().int().positive(),
    body: z.string().nullish(),
    html_url: z.string(),
    /** Present on pull requests, which the issue list includes. */
    pull_request: z.unknown().optional(),
    user: z.object({ login: z.string() }).nullable(),
  }),
};
type Issue = z.infer<typeof issueShape.schema>;

export async function reportDriftIssue(
  client: ForgeClient,
  input: DriftIssueInput,
): Promise<DriftIssueResult> {
  const issues = `${repoPath(input.owner, input.repo)}/issues`;
  const open = await shapedList(client, issues, issueShape, { state: "open" });
  const existing = open.find(
    (issue) =>
      issue.pull_request === undefined &&
      sameLogin(issue.user?.login, input.author) &&
      (issue.body ?? "").startsWith(DRIFT_MARKER),
  );
  const body = `${DRIFT_MARKER}\n${input.body}`;
  if (!input.drifted) {
    if (existing === undefined) return { action: "none" };
    await client.request("POST", `${issues}/${existing.number}/comments`, {
      body: { body: input.resolvedNote },
    });
    await client.request("PATCH", `${issues}/${existing.number}`, {
      body: { state: "closed", state_reason: "completed" },
    });
    return { action: "closed", number: existing.number, html_url: existing.html_url };
  }
  if (existing === undefined) {
    const opened = await client.request<Issue>("POST", issues, {
      body: { title: DRIFT_TITLE, body },
    });
    const openedBy = opened.data.user?.login;
    return {
      action: "opened",
      number: opened.data.number,
      html_url: opened.data.html_url,
      ...(openedBy !== undefined && { openedBy }),
    };
  }
  if (existing.body === body) {
    return { action: "unchanged", number: existing.number, html_url: existing.html_url };
  }
  await client.request("PATCH", `${issues}/${existing.number}`, { body: { body } });
  return { action: "updated", number: existing.number, html_url: existing.html_url };
}
