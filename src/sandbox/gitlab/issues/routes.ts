import {
  gitlabBadParameter,
  gitlabForbidden,
  gitlabNotFound,
  HttpError,
  idParam,
  isoTime,
  ok,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { labelNames, listingReply } from "../issuable-listing.js";
import { labelsNamed, labelsTitled } from "../labels/carried.js";
import { MAX_TEXT_SIZE } from "../notes/records.js";
import { noteRoutes } from "../notes/routes.js";
import { visibleProject } from "../world/access.js";
import type { Project } from "../world/records.js";
import { type Issue, issueIds, issuesOf } from "./records.js";
import { issue } from "./shapes.js";

/**
 * Projects' issues and their notes (doc/api/issues.md, doc/api/notes.md), in GitLab v4's shapes.
 * Labels are assigned by name as the labels area's records (labels/carried.ts).
 */

function issueOf(ctx: RequestContext, owner: Project): Issue {
  const iid = idParam(ctx.params.issue_iid);
  const found = iid === undefined ? undefined : issuesOf(owner).get(iid);
  if (found === undefined) throw gitlabNotFound();
  return found;
}

/**
 * What the Issue model refuses, answered as `render_validation_error!` answers it: 400 with the
 * errors by attribute under `message` (lib/api/helpers.rb). The description's limit is the
 * database's text limit, as a note's is (notes/records.ts).
 */
function validated(title: string, description: string): void {
  const errors: Record<string, string[]> = {};
  if (title.trim() === "") errors.title = ["can't be blank"];
  else if ([...title].length > 255) errors.title = ["is too long (maximum is 255 characters)"];
  if ([...description].length > MAX_TEXT_SIZE) {
    errors.description = [`is too long (maximum is ${MAX_TEXT_SIZE} characters)`];
  }
  if (Object.keys(errors).length > 0) {
    throw new HttpError({ status: 400, body: { message: errors } });
  }
}

/**
 * Who may edit an issue (its text, labels, state): its author, or Reporter and above in the project
 * ("Roles and permissions": Reporter can "Manage issues"; an author can always edit their own).
 */
function mayUpdate(ctx: RequestContext, found: Issue): boolean {
  const caller = requireCaller(ctx);
  return caller.id === found.author.id || ctx.world.hasRole(found.project, caller, "reporter");
}

export const issueRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/issues",
    operation: "GET /api/v4/projects/{id}/issues",
    handler: (ctx) =>
      listingReply(ctx, issuesOf(visibleProject(ctx)).values(), (item, details) =>
        issue(ctx.base, item, details),
      ),
  },
  {
    method: "GET",
    pattern: "/api/v4/projects/:id/issues/:issue_iid",
    operation: "GET /api/v4/projects/{id}/issues/{issue_iid}",
    handler: (ctx) => ok(issue(ctx.base, issueOf(ctx, visibleProject(ctx)))),
  },
  {
    method: "POST",
    pattern: "/api/v4/projects/:id/issues",
    operation: "POST /api/v4/projects/{id}/issues",
    handler: (ctx) => {
      const caller = requireCaller(ctx);
      const found = visibleProject(ctx);
      // Guests may open issues ("Roles and permissions": Guest can "Create issue").
      if (!ctx.world.hasRole(found, caller, "guest")) throw gitlabForbidden();
      const { title, description, labels } = parameters(ctx);
      if (title === undefined || title === null) throw gitlabBadParameter("title is missing");
      const text = typeof description === "string" ? description : "";
      validated(String(title), text);
      const now = isoTime(ctx.now());
      const own = issuesOf(found);
      const iid = Math.max(0, ...own.keys()) + 1;
      const created: Issue = {
        id: issueIds(ctx.world).next++,
        iid,
        project: found,
        title: String(title),
        description: text,
        state: "opened",
        labels: labelsNamed(ctx.world, found, labelNames(labels) ?? [], caller),
        author: caller,
        created_at: now,
        updated_at: now,
        closed_at: null,
        closed_by: null,
      };
      own.set(iid, created);
      return ok(issue(ctx.base, created), 201);
    },
  },
  {
    method: "PUT",
    pattern: "/api/v4/projects/:id/issues/:issue_iid",
    operation: "PUT /api/v4/projects/{id}/issues/{issue_iid}",
    handler: (ctx) => {
      const caller = requireCaller(ctx);
      const found = issueOf(ctx, visibleProject(ctx));
      if (!mayUpdate(ctx, found)) throw gitlabForbidden();
      const given = parameters(ctx);
      const { title, description, labels, add_labels: add, remove_labels: remove } = given;
      const event = given.state_event;
      // "At least one parameter is required" besides the ids (issues.md, "Edit an issue"): Grape's
      // `at_least_one_of` answers with every name it would take.
      const known = [
        "title",
        "description",
        "labels",
        "add_labels",
        "remove_labels",
        "state_event",
      ];
      if (!known.some((name) => given[name] !== undefined)) {
        throw gitlabBadParameter(
          `${known.join(", ")} are missing, at least one parameter must be provided`,
        );
      }
      const nextTitle = title === undefined ? found.title : String(title);
      const nextDescription =
        description === undefined ? found.description : String(description ?? "");
      validated(nextTitle, nextDescription);
      found.title = nextTitle;
      found.description = nextDescription;
      // `labels` replaces them, `add_labels` adds (making those no label has, as a create does),
      // `remove_labels` takes off those the project sees (IssuableBaseService#process_label_ids).
      const replaced = labelNames(labels);
      if (replaced !== undefined)
        found.labels = labelsNamed(ctx.world, found.project, replaced, caller);
      for (const label of labelsNamed(ctx.world, found.project, labelNames(add) ?? [], caller)) {
        if (!found.labels.includes(label)) found.labels.push(label);
      }
      const dropped = labelsTitled(found.project, labelNames(remove) ?? []);
      found.labels = found.labels.filter((label) => !dropped.includes(label));
      const now = isoTime(ctx.now());
      if (event === "close" && found.state === "opened") {
        found.state = "closed";
        found.closed_at = now;
        found.closed_by = caller;
      } else if (event === "reopen" && found.state === "closed") {
        found.state = "opened";
        found.closed_at = null;
        found.closed_by = null;
      }
      found.updated_at = now;
      return ok(issue(ctx.base, found));
    },
  },
  ...noteRoutes({
    type: "Issue",
    segment: "issues",
    iidName: "issue_iid",
    missing: "Issue Not Found",
    find: (ctx, iid) => issuesOf(visibleProject(ctx)).get(iid),
  }),
];
