import { type FieldError, noContent, notFound, ok, type RequestContext } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { type Label, labelsOf, labelIds } from "./records.js";
import type { Repository, GithubWorld } from "../world/records.js";
import { assertUnlocked, visibleRepository, writableRepository } from "../world/access.js";

/**
 * A repository's labels (GitHub's "Labels" operations). Names are unique regardless of case: GitHub
 * refuses `MYLABEL` beside `mylabel` with `already_exists` (Xiphe/github-sync-labels-milestones#6)
 * and finds a label by its name in any case; a rename keeps the label, so every issue that carries
 * it shows the new name, and a delete takes it off them.
 */

type Json = Record<string, unknown>;

/** "name is too long (maximum is 50 characters)" (GitHub's answer, quoted in github/docs#32156). */
export const MAX_NAME_CHARACTERS = 50;
/** "A short description of the label. Must be 100 characters or fewer." (the request schema). */
export const MAX_DESCRIPTION_CHARACTERS = 100;
/**
 * The colour of a label GitHub makes without being told one: those an issue's labels create carry
 * `ededed` and a null description (github/docs#35718, with an answer quoted in
 * canonical/gh-jira-sync-bot#59); a label created without `color` is given the same.
 */
export const DEFAULT_COLOR = "ededed";

/**
 * The labels of a new repository (docs.github.com, "Managing labels": "About default labels"), with
 * the colours and descriptions a new repository shows (as listed in valeratrades/.github,
 * github/labels.nix; wontfix also in crazy-max/ghaction-github-labeler#69).
 */
export const DEFAULT_LABELS: ReadonlyArray<Pick<Label, "name" | "color" | "description">> = [
  { name: "bug", color: "d73a4a", description: "Something isn't working" },
  {
    name: "documentation",
    color: "0075ca",
    description: "Improvements or additions to documentation",
  },
  { name: "duplicate", color: "cfd3d7", description: "This issue or pull request already exists" },
  { name: "enhancement", color: "a2eeef", description: "New feature or request" },
  { name: "good first issue", color: "7057ff", description: "Good for newcomers" },
  { name: "help wanted", color: "008672", description: "Extra attention is needed" },
  { name: "invalid", color: "e4e669", description: "This doesn't seem right" },
  { name: "question", color: "d876e3", description: "Further information is requested" },
  { name: "wontfix", color: "ffffff", description: "This will not be worked on" },
];

const HEX_COLOR = /^[0-9a-fA-F]{6}$/;

function nodeId(id: number): string {
  return Buffer.from(`Label:${id}`).toString("base64url");
}

/** GitHub's Label, as the labels operations and an issue's `labels` show it. */
export function labelShape(base: string, repo: Repository, value: Label): Json {
  return {
    id: value.id,
    node_id: nodeId(value.id),
    url: `${base}/repos/${repo.owner.login}/${repo.name}/labels/${encodeURIComponent(value.name)}`,
    name: value.name,
    description: value.description,
    color: value.color,
    default: value.default,
  };
}

/** The repository's label of this name, in any case. */
export function findLabel(repo: Repository, name: string): Label | undefined {
  const wanted = name.toLowerCase();
  for (const label of labelsOf(repo).values())
    if (label.name.toLowerCase() === wanted) return label;
  return undefined;
}

/** Adds a label to the repository with the next id. */
export function addLabel(world: GithubWorld, repo: Repository, fields: Omit<Label, "id">): Label {
  const label: Label = { id: labelIds(world).next++, ...fields };
  labelsOf(repo).set(label.id, label);
  return label;
}

/**
 * The labels an issue is given by name: existing ones in any case, and new ones made on the way
 * with GitHub's default colour (github/docs#35718: adding a label that does not exist creates it).
 */
export function labelsNamed(
  world: GithubWorld,
  repo: Repository,
  names: readonly string[],
): Label[] {
  const labels: Label[] = [];
  for (const name of names) {
    const label =
      findLabel(repo, name) ??
      addLabel(world, repo, { name, color: DEFAULT_COLOR, description: null, default: false });
    if (!labels.includes(label)) labels.push(label);
  }
  return labels;
}

/** What GitHub refuses in a label's fields, as its Validation Error entries. */
function fieldErrors(fields: {
  name?: string;
  color?: string;
  description?: string;
}): FieldError[] {
  const errors: FieldError[] = [];
  const { name, color, description } = fields;
  if (name !== undefined && name.trim() === "") {
    errors.push({ resource: "Label", code: "missing_field", field: "name" });
  } else if (name !== undefined && [...name].length > MAX_NAME_CHARACTERS) {
    errors.push({
      resource: "Label",
      code: "custom",
      field: "name",
      message: `name is too long (maximum is ${MAX_NAME_CHARACTERS} characters)`,
    });
  }
  if (color !== undefined && !HEX_COLOR.test(color)) {
    errors.push({ resource: "Label", code: "invalid", field: "color" });
  }
  if (description !== undefined && [...description].length > MAX_DESCRIPTION_CHARACTERS) {
    errors.push({
      resource: "Label",
      code: "custom",
      field: "description",
      message: `description is too long (maximum is ${MAX_DESCRIPTION_CHARACTERS} characters)`,
    });
  }
  return errors;
}

/** A duplicate name is refused as GitHub does: `already_exists` on `name`. */
function checkUnique(ctx: RequestContext, repo: Repository, name: string, self?: Label): void {
  const other = findLabel(repo, name);
  if (other !== undefined && other !== self) {
    throw ctx.refused([{ resource: "Label", code: "already_exists", field: "name" }]);
  }
}

function labelOf(ctx: RequestContext, repo: Repository): Label {
  const found = findLabel(repo, ctx.params.name ?? "");
  if (!found) throw notFound();
  return found;
}

/** An empty description is none, as a label created without one reads back. */
function descriptionOf(value: string | undefined, current: string | null): string | null {
  if (value === undefined) return current;
  return value === "" ? null : value;
}

export const labelRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/labels",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      const page = paginate(ctx, [...labelsOf(repo).values()]);
      return {
        status: 200,
        body: page.items.map((label) => labelShape(ctx.base, repo, label)),
        headers: page.headers,
      };
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/labels/:name",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      return ok(labelShape(ctx.base, repo, labelOf(ctx, repo)));
    },
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/labels",
    operation: "POST /repos/{owner}/{repo}/labels",
    handler: (ctx) => {
      const { repo } = writableRepository(ctx);
      assertUnlocked(ctx, repo);
      const body = ctx.json() as { name: string; color?: string; description?: string };
      const errors = fieldErrors(body);
      if (errors.length > 0) throw ctx.refused(errors);
      checkUnique(ctx, repo, body.name);
      const created = addLabel(ctx.world, repo, {
        name: body.name,
        color: body.color ?? DEFAULT_COLOR,
        description: descriptionOf(body.description, null),
        default: false,
      });
      return ok(labelShape(ctx.base, repo, created), 201);
    },
  },
  {
    method: "PATCH",
    pattern: "/repos/:owner/:repo/labels/:name",
    operation: "PATCH /repos/{owner}/{repo}/labels/{name}",
    handler: (ctx) => {
      const { repo } = writableRepository(ctx);
      const label = labelOf(ctx, repo);
      assertUnlocked(ctx, repo);
      const body = ctx.json() as { new_name?: string; color?: string; description?: string };
      const errors = fieldErrors({ ...body, name: body.new_name });
      if (errors.length > 0) throw ctx.refused(errors);
      // A rename to the same name in another case is the label itself, not a duplicate.
      if (body.new_name !== undefined) checkUnique(ctx, repo, body.new_name, label);
      label.name = body.new_name ?? label.name;
      label.color = body.color ?? label.color;
      label.description = descriptionOf(body.description, label.description);
      return ok(labelShape(ctx.base, repo, label));
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/labels/:name",
    operation: "DELETE /repos/{owner}/{repo}/labels/{name}",
    handler: (ctx) => {
      const { repo } = writableRepository(ctx);
      const label = labelOf(ctx, repo);
      assertUnlocked(ctx, repo);
      // Issues that carried it no longer show it (records.ts `liveLabels`).
      labelsOf(repo).delete(label.id);
      return noContent;
    },
  },
];
