import * as z from "zod";
import type { ForgeClient } from "../../forge/client.js";
import type { DriftReport, DriftResult } from "../ci/host.js";
import { DRIFT_MARKER, DRIFT_TITLE } from "../drift-issue.js";
import { shapedList } from "../shaped-list.js";
import { type GitlabUser, gitlabUser, projectPath, shaped } from "./api.js";

/**
 * The drift issue on GitLab, as on GitHub (drift-issue.ts): one open issue, found by its label, the
 * marker its description starts with and the account that opened it; opened when drift appears,
 * edited while it stays, closed with a note once it is gone (doc/api/issues.md: "List project
 * issues" with `state=opened` and `labels`, "New issue", "Edit an issue" with `state_event=close`;
 * doc/api/notes.md, "Create new issue note").
 */

const issueShape = {
  name: "issues",
  schema: z.object({
    iid: z.number().int().positive(),
    description: z.string().nullish(),
    web_url: z.string(),
    author: gitlabUser.nullable(),
  }),
};

export interface GitlabDriftTarget {
  project: string;
  /** The labels the issue carries, the first of which finds it again. */
  labels: readonly string[];
  author: GitlabUser;
}

export async function reportGitlabDriftIssue(
  client: ForgeClient,
  target: GitlabDriftTarget,
  report: DriftReport,
): Promise<DriftResult> {
  const issues = `${projectPath(target.project)}/issues`;
  const open = await shapedList(client, issues, issueShape, {
    state: "opened",
    ...(target.labels.length > 0 ? { labels: target.labels[0]! } : {}),
  });
  const existing = open.find(
    (issue) =>
      issue.author?.id === target.author.id && (issue.description ?? "").startsWith(DRIFT_MARKER),
  );
  const description = `${DRIFT_MARKER}\n${report.body}`;
  if (!report.drifted) {
    if (existing === undefined) return { action: "none" };
    await client.request("POST", `${issues}/${existing.iid}/notes`, {
      body: { body: report.resolvedNote },
    });
    await client.request("PUT", `${issues}/${existing.iid}`, { body: { state_event: "close" } });
    return { action: "closed", number: existing.iid, url: existing.web_url };
  }
  if (existing === undefined) {
    const opened = shaped(
      (
        await client.request<unknown>("POST", issues, {
          body: { title: DRIFT_TITLE, description, labels: target.labels.join(",") },
        })
      ).data,
      issueShape.schema,
      "POST",
      issues,
      "issue",
    );
    return { action: "opened", number: opened.iid, url: opened.web_url };
  }
  if (existing.description === description) {
    return { action: "unchanged", number: existing.iid, url: existing.web_url };
  }
  await client.request("PUT", `${issues}/${existing.iid}`, { body: { description } });
  return { action: "updated", number: existing.iid, url: existing.web_url };
}
