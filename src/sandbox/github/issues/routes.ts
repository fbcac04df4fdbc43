import { collaboratorsOf } from "../access/records.js";
import {
  forbidden,
  idParam,
  isoTime,
  noContent,
  notFound,
  ok,
  type RequestContext,
  requireCaller,
} from "../http.js";
import { paginate } from "../../core/pagination.js";
import { visibleRepository } from "../world/access.js";
import type { Route } from "../http.js";
import { simpleUser } from "../world/shapes.js";
import type { Account, Repository, GithubWorld } from "../world/records.js";
import { type Issue, type IssueComment, issuesOf } from "./records.js";
import { type Label, liveLabels } from "../labels/records.js";
import { labelShape, labelsNamed } from "../labels/routes.js";

/**
 * Issues and issue comments, in GitHub's shapes: what forgeplan's Action needs for its sticky
 * pull-request comment (pull requests take their comments through the issue endpoints) and for the
 * drift issue. Anyone who can see a repository may open issues and comment; editing an issue takes
 * its author or triage rights, editing a comment its author or push rights, as on GitHub.
 */

/** GitHub refuses issue and comment bodies longer than this (characters). */
export const MAX_BODY_CHARACTERS = 65_536;

type Json = Record<string, unknown>;

export function nodeId(kind: string, id: number): string {
  return Buffer.from(`${kind}:${id}`).toString("base64url");
}

export function association(repo: Repository, user: Account): string {
  if (repo.owner.id === user.id) return "OWNER";
  if (repo.org?.owners.has(user.id) || repo.org?.members.has(user.id)) return "MEMBER";
  return collaboratorsOf(repo).has(user.id) ? "COLLABORATOR" : "NONE";
}

function reactions(url: string): Json {
  const counts = ["+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket"];
  return {
    url: `${url}/reactions`,
    total_count: 0,
    ...Object.fromEntries(counts.map((c) => [c, 0])),
  };
}

export function repoUrl(base: string, repo: Repository): string {
  return `${base}/repos/${repo.owner.login}/${repo.name}`;
}

/** An issue's labels as GitHub shows them on issues and pull requests. */
export function labelsShape(base: string, repo: Repository, labels: readonly Label[]): Json[] {
  return labels.map((label) => labelShape(base, repo, label));
}

function issueShape(ctx: RequestContext, value: Issue): Json {
  const repository = repoUrl(ctx.base, value.repo);
  const url = `${repository}/issues/${value.number}`;
  return {
    id: value.id,
    node_id: nodeId("Issue", value.id),
    url,
    repository_url: repository,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${ctx.base}/${value.repo.owner.login}/${value.repo.name}/issues/${value.number}`,
    number: value.number,
    state: value.state,
    state_reason: value.state_reason,
    title: value.title,
    body: value.body,
    user: simpleUser(ctx.base, value.user),
    labels: labelsShape(ctx.base, value.repo, liveLabels(value.repo, value.labels)),
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments: value.comments.length,
    closed_at: value.closed_at,
    created_at: value.created_at,
    updated_at: value.updated_at,
    closed_by: value.closed_by === null ? null : simpleUser(ctx.base, value.closed_by),
    author_association: association(value.repo, value.user),
    reactions: reactions(url),
    // GitHub marks an issue that is a pull request with links to it.
    ...(value.pull === undefined
      ? {}
      : {
          pull_request: {
            url: `${repository}/pulls/${value.number}`,
            html_url: `${ctx.base}/${value.repo.owner.login}/${value.repo.name}/pull/${value.number}`,
            diff_url: `${ctx.base}/${value.repo.owner.login}/${value.repo.name}/pull/${value.number}.diff`,
            patch_url: `${ctx.base}/${value.repo.owner.login}/${value.repo.name}/pull/${value.number}.patch`,
            merged_at: value.pull.merged_at,
          },
        }),
  };
}

function commentShape(ctx: RequestContext, value: IssueComment): Json {
  const repository = repoUrl(ctx.base, value.issue.repo);
  const url = `${repository}/issues/comments/${value.id}`;
  return {
    id: value.id,
    node_id: nodeId("IssueComment", value.id),
    url,
    html_url: `${ctx.base}/${value.issue.repo.owner.login}/${value.issue.repo.name}/issues/${value.issue.number}#issuecomment-${value.id}`,
    body: value.body,
    user: simpleUser(ctx.base, value.user),
    created_at: value.created_at,
    updated_at: value.updated_at,
    issue_url: `${repository}/issues/${value.issue.number}`,
    author_association: association(value.issue.repo, value.user),
    reactions: reactions(url),
  };
}

export function repositoryIssues(world: GithubWorld, repo: Repository): Issue[] {
  let list = issuesOf(world).byRepository.get(repo.id);
  if (list === undefined) {
    list = [];
    issuesOf(world).byRepository.set(repo.id, list);
  }
  return list;
}

/**
 * Opens an issue in `repo` and returns it. Pull requests are opened through this too: on GitHub a
 * pull request is an issue with a pull attached, and the two share one sequence of numbers.
 */
export function openIssue(
  ctx: RequestContext,
  repo: Repository,
  user: Account,
  fields: { title: string; body: string | undefined; labels: string[] },
): Issue {
  const list = repositoryIssues(ctx.world, repo);
  const now = isoTime(ctx.now());
  const issue: Issue = {
    id: issuesOf(ctx.world).nextId.issue++,
    number: list.length + 1,
    repo,
    title: fields.title,
    body: fields.body ?? null,
    state: "open",
    state_reason: null,
    user,
    labels: labelsNamed(ctx.world, repo, fields.labels),
    comments: [],
    created_at: now,
    updated_at: now,
    closed_at: null,
    closed_by: null,
  };
  list.push(issue);
  return issue;
}

function issueOf(ctx: RequestContext, repo: Repository): Issue {
  const number = idParam(ctx.params.number);
  const found = number === undefined ? undefined : repositoryIssues(ctx.world, repo)[number - 1];
  if (!found) throw notFound();
  return found;
}

function commentOf(ctx: RequestContext, repo: Repository): IssueComment {
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : issuesOf(ctx.world).comments.get(id);
  if (!found || found.issue.repo !== repo) throw notFound();
  return found;
}

/*
 * Bodies reach these handlers checked against GitHub's request schemas (request-rules.ts): types,
 * required members and the `state`/`state_reason` values are settled. What is left is what a schema
 * cannot say.
 */

/** A body within GitHub's limit (a string, or null where the schema allows it). */
export function bodyField<T extends string | null | undefined>(value: T, errors: string[]): T {
  if (typeof value === "string" && value.length > MAX_BODY_CHARACTERS) {
    errors.push(`body is too long (maximum is ${MAX_BODY_CHARACTERS} characters)`);
  }
  return value;
}

/** The schema takes a string or an integer; a title must say something. */
export function titleField(value: string | number, errors: string[]): string | undefined {
  if (typeof value === "number") return String(value);
  if (value.trim() !== "") return value;
  errors.push("title: expected a non-empty string");
  return undefined;
}

/** Labels are names, or objects naming them (GitHub's schema takes both). */
function labelsField(
  value: (string | { name?: string })[] | undefined,
  errors: string[],
): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value.map((item) => (typeof item === "string" ? item : item.name));
  if (names.every((name) => name !== undefined)) return [...new Set(names as string[])];
  errors.push("labels: a label given as an object needs a name");
  return undefined;
}

type Labels = Parameters<typeof labelsField>[0];

const STATES = new Set(["open", "closed", "all"]);

export const issueRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/issues",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const state = ctx.query.get("state") ?? "open";
      if (!STATES.has(state)) throw ctx.invalid([`state: must be open, closed or all`], "Issue");
      const newestFirst = ctx.query.get("direction") !== "asc";
      const selected = repositoryIssues(ctx.world, repo).filter(
        (issue) => state === "all" || issue.state === state,
      );
      if (newestFirst) selected.reverse();
      const page = paginate(ctx, selected);
      return {
        status: 200,
        body: page.items.map((issue) => issueShape(ctx, issue)),
        headers: page.headers,
      };
    },
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/issues",
    operation: "POST /repos/{owner}/{repo}/issues",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      const body = ctx.json();
      const errors: string[] = [];
      const title = titleField(body.title as string | number, errors);
      const text = bodyField(body.body as string | undefined, errors);
      const labels = labelsField(body.labels as Labels, errors);
      if (errors.length > 0 || title === undefined) throw ctx.invalid(errors, "Issue");
      const created = openIssue(ctx, repo, caller, { title, body: text, labels: labels ?? [] });
      return ok(issueShape(ctx, created), 201);
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:number",
    handler: (ctx) => ok(issueShape(ctx, issueOf(ctx, visibleRepository(ctx)))),
  },
  {
    method: "PATCH",
    pattern: "/repos/:owner/:repo/issues/:number",
    operation: "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      const issue = issueOf(ctx, repo);
      if (issue.user.id !== caller.id && !ctx.world.can(repo, caller, "triage")) {
        throw forbidden("Must have triage rights to edit this issue.");
      }
      const body = ctx.json();
      const errors: string[] = [];
      const sentTitle = body.title as string | number | null | undefined;
      // A null title leaves the title as it is.
      const title = sentTitle == null ? undefined : titleField(sentTitle, errors);
      const text = bodyField(body.body as string | null | undefined, errors);
      const labels = labelsField(body.labels as Labels, errors);
      const state = body.state as "open" | "closed" | undefined;
      const reason = body.state_reason as Issue["state_reason"] | undefined;
      if (errors.length > 0) throw ctx.invalid(errors, "Issue");
      const now = isoTime(ctx.now());
      if (title !== undefined) issue.title = title;
      if (text !== undefined) issue.body = text;
      if (labels !== undefined) issue.labels = labelsNamed(ctx.world, repo, labels);
      if (state === "closed" && issue.state === "open") {
        issue.state = "closed";
        issue.state_reason = reason ?? "completed";
        issue.closed_at = now;
        issue.closed_by = caller;
      } else if (state === "open" && issue.state === "closed") {
        issue.state = "open";
        issue.state_reason = "reopened";
        issue.closed_at = null;
        issue.closed_by = null;
      }
      issue.updated_at = now;
      return ok(issueShape(ctx, issue));
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:number/comments",
    handler: (ctx) => {
      const issue = issueOf(ctx, visibleRepository(ctx));
      const page = paginate(ctx, issue.comments);
      return {
        status: 200,
        body: page.items.map((comment) => commentShape(ctx, comment)),
        headers: page.headers,
      };
    },
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/issues/:number/comments",
    operation: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      const issue = issueOf(ctx, repo);
      const errors: string[] = [];
      const text = bodyField(ctx.json().body as string, errors);
      if (errors.length > 0) throw ctx.invalid(errors, "IssueComment");
      const now = isoTime(ctx.now());
      const created: IssueComment = {
        id: issuesOf(ctx.world).nextId.comment++,
        issue,
        body: text,
        user: caller,
        created_at: now,
        updated_at: now,
      };
      issue.comments.push(created);
      issuesOf(ctx.world).comments.set(created.id, created);
      return ok(commentShape(ctx, created), 201);
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/comments/:id",
    handler: (ctx) => ok(commentShape(ctx, commentOf(ctx, visibleRepository(ctx)))),
  },
  {
    method: "PATCH",
    pattern: "/repos/:owner/:repo/issues/comments/:id",
    operation: "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      const comment = commentOf(ctx, repo);
      if (comment.user.id !== caller.id && !ctx.world.can(repo, caller, "push")) {
        throw forbidden("Must have push rights to edit another user's comment.");
      }
      const errors: string[] = [];
      const text = bodyField(ctx.json().body as string, errors);
      if (errors.length > 0) throw ctx.invalid(errors, "IssueComment");
      comment.body = text;
      comment.updated_at = isoTime(ctx.now());
      return ok(commentShape(ctx, comment));
    },
  },
  {
    // GitHub's "Delete an issue comment" (204, no body). Who may: the same as for an edit, its
    // author or someone with write access (GitHub's "Managing disruptive comments" gives people
    // with write access the editing and deleting of others' comments).
    method: "DELETE",
    pattern: "/repos/:owner/:repo/issues/comments/:id",
    operation: "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const caller = requireCaller(ctx);
      const comment = commentOf(ctx, repo);
      if (comment.user.id !== caller.id && !ctx.world.can(repo, caller, "push")) {
        throw forbidden("Must have push rights to delete another user's comment.");
      }
      const comments = comment.issue.comments;
      comments.splice(comments.indexOf(comment), 1);
      issuesOf(ctx.world).comments.delete(comment.id);
      return noContent;
    },
  },
];
