import { createHash } from "node:crypto";
import {
  forbidden,
  githubError,
  idParam,
  isoTime,
  notFound,
  ok,
  type RequestContext,
  requireCaller,
} from "../http.js";
import { paginate } from "../../core/pagination.js";
import { visibleRepository } from "../world/access.js";
import type { Route } from "../http.js";
import {
  association,
  bodyField,
  repositoryIssues,
  labelsShape,
  nodeId,
  openIssue,
  repoUrl,
  titleField,
} from "./routes.js";
import { repository, simpleUser } from "../world/shapes.js";
import { issuesOf, type PullRequest } from "./records.js";
import type { Repository } from "../world/records.js";
import { liveLabels } from "../labels/records.js";

/**
 * Pull requests, in GitHub's shapes, as far as a workflow needs them: open one between two branches
 * of a repository, merge it, and find the pull request that brought a commit in
 * (`GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls`), which is how forgeplan's Action finds the
 * plan a merge was reviewed with. A pull request is an issue too: it takes the next issue number and
 * its comments are the issue's. There are no files or diffs: a pull request here is its branches,
 * and a merge moves the base branch to a new commit.
 */

type Json = Record<string, unknown>;

function pullsOf(ctx: RequestContext, repo: Repository): PullRequest[] {
  return repositoryIssues(ctx.world, repo).flatMap((issue) => (issue.pull ? [issue.pull] : []));
}

/** The pull request whose issue number is the path's `pull_number`. */
function pullOf(ctx: RequestContext, repo: Repository): PullRequest {
  const number = idParam(ctx.params.number);
  const found =
    number === undefined ? undefined : repositoryIssues(ctx.world, repo)[number - 1]?.pull;
  if (!found) throw notFound();
  return found;
}

function side(ctx: RequestContext, repo: Repository, branch: { ref: string; sha: string }): Json {
  return {
    label: `${repo.owner.login}:${branch.ref}`,
    ref: branch.ref,
    sha: branch.sha,
    user: simpleUser(ctx.base, repo.owner),
    repo: repository(ctx.base, ctx.world, repo, ctx.caller),
  };
}

/** GitHub's Pull Request Simple (lists), or with `full` its Pull Request (one pull request). */
function pullShape(ctx: RequestContext, pull: PullRequest, full: boolean): Json {
  const issue = pull.issue;
  const repo = issue.repo;
  const repository = repoUrl(ctx.base, repo);
  const url = `${repository}/pulls/${issue.number}`;
  const html = `${ctx.base}/${repo.owner.login}/${repo.name}/pull/${issue.number}`;
  const issueUrl = `${repository}/issues/${issue.number}`;
  const link = (href: string) => ({ href });
  const base = repo.branches.get(pull.base.ref);
  const simple: Json = {
    url,
    id: pull.id,
    node_id: nodeId("PullRequest", pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${repository}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: `${repository}/statuses/${pull.head.sha}`,
    number: issue.number,
    state: issue.state,
    locked: false,
    title: issue.title,
    user: simpleUser(ctx.base, issue.user),
    body: issue.body,
    labels: labelsShape(ctx.base, issue.repo, liveLabels(issue.repo, issue.labels)),
    milestone: null,
    active_lock_reason: null,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    merged_at: pull.merged_at,
    merge_commit_sha: pull.merge_commit_sha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: side(ctx, repo, pull.head),
    base: side(ctx, repo, { ref: pull.base.ref, sha: base?.sha ?? pull.base.sha }),
    _links: {
      self: link(url),
      html: link(html),
      issue: link(issueUrl),
      comments: link(`${issueUrl}/comments`),
      review_comments: link(`${url}/comments`),
      review_comment: link(`${repository}/pulls/comments{/number}`),
      commits: link(`${url}/commits`),
      statuses: link(`${repository}/statuses/${pull.head.sha}`),
    },
    author_association: association(repo, issue.user),
    auto_merge: null,
    draft: false,
  };
  if (!full) return simple;
  const open = issue.state === "open";
  return {
    ...simple,
    merged: pull.merged_at !== null,
    mergeable: open ? true : null,
    rebaseable: open ? true : null,
    mergeable_state: open ? "clean" : "unknown",
    merged_by: pull.merged_by === null ? null : simpleUser(ctx.base, pull.merged_by),
    comments: issue.comments.length,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: 1,
    additions: 0,
    deletions: 0,
    changed_files: 0,
  };
}

/** Whether `sha` names a commit the repository has: a branch's, or one a pull request made or merged. */
function knownCommit(ctx: RequestContext, repo: Repository, sha: string): boolean {
  for (const branch of repo.branches.values()) if (branch.sha === sha) return true;
  return pullsOf(ctx, repo).some(
    (pull) => pull.head.sha === sha || pull.base.sha === sha || pull.merge_commit_sha === sha,
  );
}

export const pullRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/pulls",
    operation: "POST /repos/{owner}/{repo}/pulls",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      // Opening a pull request needs write access to its head branch, here in the same repository.
      if (!ctx.world.can(repo, caller, "push")) {
        throw forbidden("Must have push access to open a pull request from this repository.");
      }
      const body = ctx.json();
      const errors: string[] = [];
      const title = titleField((body.title ?? "") as string | number, errors);
      const text = bodyField(body.body as string | undefined, errors);
      const head = repo.branches.get(String(body.head));
      const base = repo.branches.get(String(body.base));
      if (head === undefined)
        errors.push(`head: no branch '${String(body.head)}' in this repository`);
      if (base === undefined)
        errors.push(`base: no branch '${String(body.base)}' in this repository`);
      if (head !== undefined && base !== undefined && head.sha === base.sha) {
        // GitHub's words when the head adds nothing to the base.
        errors.push(`No commits between ${base.name} and ${head.name}`);
      }
      if (errors.length > 0 || title === undefined || head === undefined || base === undefined) {
        throw ctx.invalid(errors, "PullRequest");
      }
      const issue = openIssue(ctx, repo, caller, { title, body: text, labels: [] });
      issue.pull = {
        id: issuesOf(ctx.world).nextId.pull++,
        issue,
        head: { ref: head.name, sha: head.sha },
        base: { ref: base.name, sha: base.sha },
        merged_at: null,
        merged_by: null,
        merge_commit_sha: null,
      };
      return ok(pullShape(ctx, issue.pull, true), 201);
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:number",
    handler: (ctx) => ok(pullShape(ctx, pullOf(ctx, visibleRepository(ctx)), true)),
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/pulls/:number/merge",
    operation: "PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      const pull = pullOf(ctx, repo);
      if (!ctx.world.can(repo, caller, "push")) {
        throw forbidden("Must have push access to merge this pull request.");
      }
      const body = ctx.json();
      // GitHub's 405 and 409 answers of this operation (its published responses).
      if (pull.issue.state !== "open") throw githubError(405, "Pull Request is not mergeable");
      if (body.sha !== undefined && body.sha !== pull.head.sha) {
        throw githubError(409, "Head branch was modified. Review and try the merge again.");
      }
      const base = repo.branches.get(pull.base.ref);
      if (base === undefined) throw githubError(405, "Pull Request is not mergeable");
      const now = isoTime(ctx.now());
      const sha = createHash("sha1")
        .update(`merge ${base.sha} ${pull.head.sha} #${pull.issue.number}`)
        .digest("hex");
      base.sha = sha;
      pull.merged_at = now;
      pull.merged_by = caller;
      pull.merge_commit_sha = sha;
      pull.issue.state = "closed";
      pull.issue.state_reason = "completed";
      pull.issue.closed_at = now;
      pull.issue.closed_by = caller;
      pull.issue.updated_at = now;
      return ok({ sha, merged: true, message: "Pull Request successfully merged" });
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/commits/:sha/pulls",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const sha = ctx.params.sha ?? "";
      const pulls = pullsOf(ctx, repo);
      // GitHub's description: the merged pull request that introduced the commit; for a commit not
      // on the default branch, the pull requests it is the head of; a branch name lists the pull
      // requests from that branch.
      let found = pulls.filter((pull) => pull.merge_commit_sha === sha);
      if (found.length === 0) found = pulls.filter((pull) => pull.head.sha === sha);
      if (found.length === 0) found = pulls.filter((pull) => pull.head.ref === sha);
      if (found.length === 0 && !knownCommit(ctx, repo, sha) && !repo.branches.has(sha)) {
        // Observed on GitHub's commit-addressed endpoints for an unknown commit (yegor256/rultor#1344).
        throw githubError(422, `No commit found for SHA: ${sha}`);
      }
      const page = paginate(ctx, found);
      return {
        status: 200,
        body: page.items.map((pull) => pullShape(ctx, pull, false)),
        headers: page.headers,
      };
    },
  },
];
