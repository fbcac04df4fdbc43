import { TRUE } from "../request-parameters.js";
import {
  gitlabBadParameter,
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  gitlabPageReply,
  HttpError,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { issuesOf } from "../issues/records.js";
import { mergeRequestsOf } from "../merge-requests/records.js";
import { visibleGroup, visibleProject } from "../world/access.js";
import type { Group, Project } from "../world/records.js";
import { storedColor, validColor } from "./colors.js";
import { groupsFrom, type Label, labelIds, labelsOf, prioritiesOf } from "./records.js";
import { byTitle, labelShape } from "./shapes.js";

/**
 * GitLab's project and group labels APIs (doc/api/labels.md, group_labels.md, with
 * lib/api/helpers/label_helpers.rb and app/models/label.rb, project_label.rb):
 *
 * - A project's listing shows its own labels and its groups' (`include_ancestor_groups`, default
 *   true; its own group's always, LabelsFinder); a group's, its own and its ancestors' (default
 *   true) and, asked, its descendants'. Ordered by title, then id.
 * - A create of a name the place already sees (its own or a group's above) is 409 "Label already
 *   exists" (`create_label`: `available_labels_for(parent).find_by_title`).
 * - An edit or a delete finds the label by id or title among the place's own labels and, from a
 *   project, its own group's (`find_label(…, include_ancestor_groups: false)`); a group's label so
 *   found needs the caller's role on that group (`authorize! :update_label, label`). A project's
 *   `priority` is its own (`label_priorities`), set or removed (null) through the project.
 * - Names are stripped, sanitized (Label#sanitize_value: HTML tags dropped, character references
 *   decoded), at most 255 characters, without commas, unique per project or group as written; a
 *   project label may not take the name of a label of its group (ProjectLabel
 *   `title_must_not_exist_at_group_level`). Colours are stored as Gitlab::Color.of stores them
 *   (colors.ts) and must be `#` and 3 or 6 hex digits (ColorValidator: "must be a valid color
 *   code").
 * - Managing labels takes the Planner role or above (the sandbox's reading of GitLab's permissions
 *   table, "Manage labels"; Planner was added in GitLab 17.7, Reporter and above before it).
 */

type Place = { project: Project } | { group: Group };

const recordOf = (place: Place) => ("project" in place ? place.project : place.group);

function placeOf(ctx: RequestContext, scope: "projects" | "groups"): Place {
  return scope === "projects"
    ? { project: visibleProject(ctx) }
    : { group: visibleGroup(ctx, ctx.params.id) };
}

function descendantsOf(ctx: RequestContext, group: Group): Group[] {
  return [...ctx.world.groups.values()].filter(
    (candidate) => candidate !== group && groupsFrom(candidate.parent).includes(group),
  );
}

const flag = (ctx: RequestContext, name: string, fallback: boolean): boolean => {
  const value = ctx.query.get(name);
  return value === null || value === "" ? fallback : TRUE.has(value.toLowerCase());
};

/** The labels a place sees, as its listing shows them unsorted. */
function seen(ctx: RequestContext, place: Place, ancestors: boolean): Label[] {
  if ("project" in place) {
    const { project } = place;
    const groups = ancestors ? groupsFrom(project.group) : [project.group];
    return [...labelsOf(project), ...groups.flatMap((group) => labelsOf(group))];
  }
  const groups = [
    ...(ancestors ? groupsFrom(place.group) : [place.group]),
    ...(flag(ctx, "include_descendant_groups", false) ? descendantsOf(ctx, place.group) : []),
  ];
  return groups.flatMap((group) => labelsOf(group));
}

const sorted = (labels: Label[]) =>
  [...labels].sort((a, b) => byTitle(a.title, b.title) || a.id - b.id);

function shown(ctx: RequestContext, place: Place, label: Label, counts = false) {
  return labelShape(label, {
    ...("project" in place ? { project: place.project } : {}),
    ...(counts ? { counts: ctx.world.projects.values() } : {}),
  });
}

/** By id, else by title (`labels.find_by_id(id_or_title) || labels.find_by_title(id_or_title)`). */
function found(labels: readonly Label[], idOrTitle: string): Label {
  const label =
    (/^\d+$/.test(idOrTitle)
      ? labels.find((candidate) => candidate.id === Number(idOrTitle))
      : undefined) ?? labels.find((candidate) => candidate.title === idOrTitle);
  if (label === undefined) throw gitlabNotFound("Label Not Found");
  return label;
}

/** The labels an edit or a delete may find: the place's own and a project's own group's. */
function editable(place: Place): Label[] {
  return "project" in place
    ? [...labelsOf(place.project), ...labelsOf(place.project.group)]
    : labelsOf(place.group);
}

function requirePlanner(ctx: RequestContext, record: Project | Group): void {
  if (!ctx.world.hasRole(record, ctx.caller, "planner")) throw gitlabForbidden();
}

const ownerRecord = (label: Label) =>
  "project" in label.owner ? label.owner.project : label.owner.group;

function invalid(errors: Record<string, string[]>): HttpError {
  return new HttpError({ status: 400, body: { message: errors } });
}

/** Label#sanitize_value: `CGI.unescapeHTML(Sanitize.clean(value))`. */
function sanitized(value: string): string {
  return value
    .replaceAll(/<\/?[A-Za-z!?][^>]*>/g, "")
    .replaceAll(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replaceAll(/&#x([0-9A-Fa-f]+);/g, (_, code: string) =>
      String.fromCodePoint(parseInt(code, 16)),
    )
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");
}

function stringParameter(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw gitlabBadParameter(`${name} is invalid`);
  return value;
}

/** A title as Label stores it, or the validation errors GitLab answers for it. */
function titleOf(sent: string): string {
  const title = sanitized(sent).trim();
  if (title === "") throw invalid({ title: ["can't be blank"] });
  if (title.includes(",")) throw invalid({ title: ["is invalid"] });
  if ([...title].length > 255)
    throw invalid({ title: ["is too long (maximum is 255 characters)"] });
  return title;
}

function colorOf(sent: string): string {
  const stored = storedColor(sent);
  if (!validColor(stored)) throw invalid({ color: ["must be a valid color code"] });
  return stored;
}

/** A priority as LabelPriority keeps it: an integer of 0 or more (null: none). */
function priorityOf(value: unknown): number | null {
  if (value === null || value === "") return null;
  const number = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) {
    throw gitlabBadParameter("priority is invalid");
  }
  if (number < 0) throw invalid({ priority: ["must be greater than or equal to 0"] });
  return number;
}

/** A title taken where the label lives (or would), or by a label of a project label's group. */
function checkTitleFree(owner: Label["owner"], title: string, except?: Label): void {
  const record = "project" in owner ? owner.project : owner.group;
  if (labelsOf(record).some((other) => other !== except && other.title === title)) {
    throw invalid({ title: ["has already been taken"] });
  }
  if ("project" in owner) {
    const group = owner.project.group;
    if (labelsOf(group).some((other) => other.title === title)) {
      throw invalid({
        title: [`already exists at group level for ${group.name}. Please choose another one.`],
      });
    }
  }
}

/**
 * A label's removal from everything that carries it or ranks it: the issues and merge requests
 * (the issues and merge-requests areas' records) and the projects' priorities.
 */
function removeEverywhere(ctx: RequestContext, label: Label): void {
  const list = labelsOf(ownerRecord(label));
  list.splice(list.indexOf(label), 1);
  for (const project of ctx.world.projects.values()) {
    prioritiesOf(project).delete(label.id);
    for (const item of [...issuesOf(project).values(), ...mergeRequestsOf(project).values()]) {
      item.labels = item.labels.filter((carried) => carried !== label);
    }
  }
}

const UPDATABLE = {
  projects: ["new_name", "color", "description", "priority", "archived"],
  groups: ["new_name", "color", "description", "archived"],
} as const;

function labelRoutes(scope: "projects" | "groups"): Route[] {
  const base = `/api/v4/${scope}/:id/labels`;
  const template = `/api/v4/${scope}/{id}/labels`;
  return [
    {
      method: "GET",
      pattern: base,
      operation: `GET ${template}`,
      handler: (ctx) => {
        const place = placeOf(ctx, scope);
        const search = ctx.query.get("search")?.toLowerCase();
        const labels = sorted(seen(ctx, place, flag(ctx, "include_ancestor_groups", true))).filter(
          (label) =>
            search === undefined ||
            label.title.toLowerCase().includes(search) ||
            (label.description ?? "").toLowerCase().includes(search),
        );
        const counts = flag(ctx, "with_counts", false);
        return gitlabPageReply(ctx, labels, (label) => shown(ctx, place, label, counts));
      },
    },
    {
      method: "GET",
      pattern: `${base}/:name`,
      operation: `GET ${template}/{name}`,
      handler: (ctx) => {
        const place = placeOf(ctx, scope);
        const labels = sorted(seen(ctx, place, flag(ctx, "include_ancestor_groups", true)));
        return ok(shown(ctx, place, found(labels, ctx.params.name ?? "")));
      },
    },
    {
      method: "POST",
      pattern: base,
      operation: `POST ${template}`,
      handler: (ctx) => {
        const place = placeOf(ctx, scope);
        const record = recordOf(place);
        requirePlanner(ctx, record);
        const params = parameters(ctx);
        const name = stringParameter(params, "name") ?? "";
        if (seen(ctx, place, true).some((label) => label.title === name)) {
          throw gitlabError(409, "Label already exists");
        }
        const owner = "project" in place ? { project: place.project } : { group: place.group };
        const title = titleOf(name);
        checkTitleFree(owner, title);
        const description = stringParameter(params, "description");
        const label: Label = {
          id: labelIds(ctx.world).label++,
          title,
          color: colorOf(stringParameter(params, "color") ?? ""),
          description: description === undefined ? null : sanitized(description),
          owner,
        };
        const priority = "project" in place ? priorityOf(params.priority ?? null) : null;
        labelsOf(record).push(label);
        if ("project" in place && priority !== null) {
          prioritiesOf(place.project).set(label.id, priority);
        }
        return { status: 201, body: shown(ctx, place, label) };
      },
    },
    {
      method: "PUT",
      pattern: `${base}/:name`,
      operation: `PUT ${template}/{name}`,
      handler: (ctx) => {
        const place = placeOf(ctx, scope);
        requirePlanner(ctx, recordOf(place));
        const label = found(editable(place), ctx.params.name ?? "");
        const params = parameters(ctx);
        const given = UPDATABLE[scope].filter((name) => name in params);
        if (given.length === 0) {
          throw gitlabBadParameter(
            `${UPDATABLE[scope].join(", ")} are missing, at least one parameter must be provided`,
          );
        }
        if (given.some((name) => name !== "priority")) {
          requirePlanner(ctx, ownerRecord(label));
          const newName = stringParameter(params, "new_name");
          const title = newName === undefined ? label.title : titleOf(newName);
          if (title !== label.title) checkTitleFree(label.owner, title, label);
          const color = stringParameter(params, "color");
          const stored = color === undefined ? label.color : colorOf(color);
          const description = stringParameter(params, "description");
          label.title = title;
          label.color = stored;
          if (description !== undefined) label.description = sanitized(description);
        }
        if ("project" in place && "priority" in params) {
          const priority = priorityOf(params.priority);
          const priorities = prioritiesOf(place.project);
          if (priority === null) priorities.delete(label.id);
          else priorities.set(label.id, priority);
        }
        return ok(shown(ctx, place, label));
      },
    },
    {
      method: "DELETE",
      pattern: `${base}/:name`,
      operation: `DELETE ${template}/{name}`,
      handler: (ctx) => {
        const place = placeOf(ctx, scope);
        const label = found(editable(place), ctx.params.name ?? "");
        requirePlanner(ctx, ownerRecord(label));
        removeEverywhere(ctx, label);
        return { status: 204, body: undefined };
      },
    },
  ];
}

export const gitlabLabelRoutes: Route[] = [...labelRoutes("projects"), ...labelRoutes("groups")];
