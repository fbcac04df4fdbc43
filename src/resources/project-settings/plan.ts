import { selectedName } from "../../config/glob.js";
import { type Change, type ChangeError, newChange } from "../../core/plan.js";
import { changeError, type RepoRef, type ResourceReader } from "../context.js";
import type { Location } from "../kind.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { projectPath } from "../gitlab-paths.js";
import {
  agrees,
  branchAnswer,
  KIND,
  liveValue,
  OWN_CHANGES,
  type ProjectAnswer,
  projectAnswer,
} from "./canonical.js";
import { notFound, planArchived, planCreate, planMove } from "./lifecycle.js";
import {
  type AccessLevel,
  LEVEL_RANK,
  type ProjectSettings,
  REPOSITORY_CHILDREN,
  TIERED,
} from "./settings.js";

/**
 * The changes of one project's settings, each a resource of its own so a gate or an error holds
 * back only what it is about:
 *
 * - `project`: the fields of one `PUT /projects/:id` (every written field but the two below);
 * - `visibility`: its own PUT, applied only with --allow-visibility (as on GitHub);
 * - `default_branch`: its own PUT, planned only to a branch that exists (read first);
 * - the lifecycle (lifecycle.ts): `project` is a create when the project does not exist, `archived`
 *   and `path` (a move from a previous path) are changes of their own.
 */

interface Context {
  reader: ResourceReader;
  path: string;
  scope: string;
}

function failed(ctx: Context, name: string, error: ChangeError): Change {
  return { ...newChange(ctx.reader.target, ctx.scope, KIND, name), error };
}

/** An update of `name` when `wanted` differs from `live`, sent as one PUT of `body`. */
function planned(
  ctx: Context,
  name: string,
  live: Record<string, unknown>,
  wanted: Record<string, unknown>,
  body: Record<string, unknown>,
): Change {
  const changed = Object.keys(body).length > 0;
  return {
    ...newChange(ctx.reader.target, ctx.scope, KIND, name),
    action: changed ? "update" : "no-op",
    diff: changed ? diffValues(live, wanted) : [],
    requests: changed ? [{ method: "PUT", path: ctx.path, body }] : [],
    live_fingerprint: fingerprint(live),
  };
}

/** What GitLab's answer lacks of what the value writes: those fields cannot be compared. */
function unreported(ctx: Context, fields: readonly string[]): ChangeError {
  const tiered = fields.filter((field) => TIERED[field] !== undefined);
  const why =
    tiered.length > 0
      ? `GitLab shows ${tiered.join(", ")} only where the tier has it (${tiered.map((field) => TIERED[field]).join(", ")}) and drops it from a write elsewhere`
      : `${ctx.reader.credential} may not administer ${ctx.scope}`;
  return changeError(
    `GET ${ctx.path} answered without ${fields.join(", ")} (${why}), so ${fields.length === 1 ? "it" : "they"} cannot be compared`,
    "GET",
    ctx.path,
    200,
  );
}

/**
 * Merge requests, forks and CI/CD may not be open wider than the repository once the PUT is
 * applied, live and written together: GitLab refuses the whole PUT ("cannot have higher visibility
 * level than repository access level"), so the plan says which field before anything is sent.
 */
function widerThanRepository(
  ctx: Context,
  value: ProjectSettings,
  answer: ProjectAnswer,
): ChangeError | undefined {
  const after = (field: string) =>
    (value[field as keyof ProjectSettings] ?? answer[field]) as AccessLevel | undefined;
  const repository = after("repository_access_level");
  if (repository === undefined) return undefined;
  const wider = REPOSITORY_CHILDREN.filter((field) => {
    const level = after(field);
    return level !== undefined && LEVEL_RANK[level] > LEVEL_RANK[repository];
  });
  if (wider.length === 0) return undefined;
  const named = wider.map((field) => `${field} ${after(field)}`).join(", ");
  return changeError(
    `${named} would be wider than repository_access_level ${repository} of ${ctx.scope}: GitLab refuses it ("cannot have higher visibility level than repository access level"); write ${wider.length === 1 ? "it" : "them"} no wider than the repository`,
  );
}

function planFields(
  ctx: Context,
  value: ProjectSettings,
  answer: ProjectAnswer,
): Change | undefined {
  const fields = Object.keys(value).filter(
    (field) => !(OWN_CHANGES as readonly string[]).includes(field),
  );
  if (fields.length === 0) return undefined;
  const missing = fields.filter((field) => answer[field] === undefined);
  if (missing.length > 0) return failed(ctx, "project", unreported(ctx, missing));
  const wider = widerThanRepository(ctx, value, answer);
  if (wider !== undefined) return failed(ctx, "project", wider);
  const live: Record<string, unknown> = {};
  const wanted: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const written = value[field as keyof ProjectSettings];
    const shown = liveValue(answer, field);
    live[field] = shown;
    if (agrees(field, written, shown)) {
      wanted[field] = shown;
    } else {
      wanted[field] = written;
      body[field] = written;
    }
  }
  return planned(ctx, "project", live, wanted, body);
}

/**
 * What GitLab's documentation says a change of visibility does ("Project and group visibility",
 * doc/user/public_access.md): who can see the project and clone it.
 */
const VISIBILITY_NOTES: Record<string, string> = {
  private: "GitLab: a private project is visible only to its members (and members of its groups)",
  internal: "GitLab: an internal project is visible to every signed-in user except external users",
  public: "GitLab: a public project and its code are visible to everyone, without signing in",
};

function planVisibility(ctx: Context, wanted: string, answer: ProjectAnswer): Change {
  if (answer.visibility === undefined)
    return failed(ctx, "visibility", unreported(ctx, ["visibility"]));
  const change = planned(
    ctx,
    "visibility",
    { visibility: answer.visibility },
    { visibility: wanted },
    answer.visibility === wanted ? {} : { visibility: wanted },
  );
  if (change.action === "no-op") return change;
  return { ...change, gate: "visibility", notes: [VISIBILITY_NOTES[wanted]!] };
}

/**
 * The default branch switches to a branch that exists, never one GitLab would have to make: the
 * branch is read first (`GET /projects/:id/repository/branches/:branch`), and a missing one is an
 * error at plan time rather than GitLab's 400 at apply ("Could not set the default branch. Do you
 * have a branch named '…' in your repository?").
 */
async function planDefaultBranch(
  ctx: Context,
  wanted: string,
  answer: ProjectAnswer,
): Promise<Change> {
  if (answer.default_branch === undefined)
    return failed(ctx, "default_branch", unreported(ctx, ["default_branch"]));
  const live = { default_branch: answer.default_branch };
  if (answer.default_branch === wanted) return planned(ctx, "default_branch", live, live, {});
  const path = `${ctx.path}/repository/branches/${encodeURIComponent(wanted)}`;
  const read = await ctx.reader.getOrAbsent(path, branchAnswer);
  if (read.kind === "error") return failed(ctx, "default_branch", read.error);
  if (read.kind === "absent") {
    return failed(
      ctx,
      "default_branch",
      changeError(
        `default_branch ${wanted} does not exist in ${ctx.scope}: default_branch switches to an existing branch only (push it first)`,
        "GET",
        path,
        404,
      ),
    );
  }
  return planned(
    ctx,
    "default_branch",
    live,
    { default_branch: wanted },
    {
      default_branch: wanted,
    },
  );
}

/** Plans one project's settings where the engine located it (its lifecycle kind's `locate`). */
export async function planProjectSettings(input: {
  reader: ResourceReader;
  project: RepoRef;
  value: ProjectSettings;
  location: Location | undefined;
}): Promise<Change[]> {
  const { reader, project, value } = input;
  const location = input.location ?? {
    kind: "found",
    at: project,
    wanted: project,
    archived: false,
  };
  const ctx: Context = {
    reader,
    path: projectPath(project),
    scope: selectedName(project.owner, project.name),
  };
  if (location.kind === "error") return [failed(ctx, "project", location.error)];
  if (location.kind === "absent") {
    if (value.create === true) return [await planCreate({ reader, project, value })];
    return [notFound(reader, ctx.scope, value)];
  }
  const given =
    location.answer === undefined ? undefined : projectAnswer.schema.safeParse(location.answer);
  let answer: ProjectAnswer;
  if (given?.success === true) answer = given.data;
  else {
    const read = await reader.getOrAbsent(ctx.path, projectAnswer);
    if (read.kind === "error") return [failed(ctx, "project", read.error)];
    if (read.kind === "absent") return [notFound(reader, ctx.scope, value)];
    answer = read.data;
  }
  return [
    planFields(ctx, value, answer),
    value.visibility === undefined ? undefined : planVisibility(ctx, value.visibility, answer),
    value.default_branch === undefined
      ? undefined
      : await planDefaultBranch(ctx, value.default_branch, answer),
    value.archived === undefined
      ? undefined
      : planArchived({ reader, scope: ctx.scope, path: ctx.path, wanted: value.archived, answer }),
    value.previously === undefined
      ? undefined
      : planMove({ reader, at: project, wanted: location.wanted, answer }),
  ].filter((change): change is Change => change !== undefined);
}

/** The requests planning a value takes at least: the project, and a branch it switches to. */
export function projectSettingsReads(value: ProjectSettings): number {
  return value.default_branch === undefined ? 1 : 2;
}
