import { type Change, type ChangeError, newChange } from "../../core/plan.js";
import { changeError, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { groupPath } from "../gitlab-paths.js";
import {
  type GroupAnswer,
  groupAnswer,
  KIND,
  liveValue,
  protectionBody,
  writtenValue,
} from "./canonical.js";
import { planCreate } from "./create.js";
import { type GroupSettings, settingsFields, TIERED, TOP_LEVEL_ONLY } from "./settings.js";

/**
 * The changes of one group's settings, each a resource of its own so a gate or an error holds
 * back only what it is about: `group` (one `PUT /groups/:id` of every written field but
 * visibility) and `visibility` (its own PUT, applied only with --allow-visibility, as for projects).
 */

interface Context {
  reader: ResourceReader;
  path: string;
  scope: string;
}

function failed(ctx: Context, name: string, error: ChangeError): Change {
  return { ...newChange(ctx.reader.target, ctx.scope, KIND, name), error };
}

/** What GitLab's answer lacks of what the value writes: those fields cannot be compared. */
function unreported(ctx: Context, fields: readonly string[]): ChangeError {
  const why = fields.map((field) =>
    TIERED[field] !== undefined
      ? `GitLab shows ${field} only where the tier has it (${TIERED[field]}) and drops it from a write elsewhere`
      : (TOP_LEVEL_ONLY as readonly string[]).includes(field)
        ? `only top-level groups have ${field}`
        : `${ctx.reader.credential} may not administer ${ctx.scope}`,
  );
  return changeError(
    `GET ${ctx.path} answered without ${fields.join(", ")} (${[...new Set(why)].join("; ")}), so ${fields.length === 1 ? "it" : "they"} cannot be compared`,
    "GET",
    ctx.path,
    200,
  );
}

function planFields(ctx: Context, value: GroupSettings, answer: GroupAnswer): Change | undefined {
  const fields = Object.keys(settingsFields(value)).filter((field) => field !== "visibility");
  if (fields.length === 0) return undefined;
  const missing = fields.filter(
    (field) => (answer as Record<string, unknown>)[field] === undefined,
  );
  if (missing.length > 0) return failed(ctx, "group", unreported(ctx, missing));
  const live: Record<string, unknown> = {};
  const wanted: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const shown = liveValue(answer, field);
    let written = writtenValue(field, value[field as keyof GroupSettings]);
    if (field === "default_branch_protection_defaults") {
      // Compared as written; sent whole, the live keys not written kept as they are.
      written = { ...(shown as object), ...(written as object) };
    }
    live[field] = shown;
    wanted[field] = written;
    if (JSON.stringify(written) !== JSON.stringify(shown ?? null)) {
      body[field] =
        field === "default_branch_protection_defaults"
          ? protectionBody(written as Record<string, unknown>)
          : written;
    }
  }
  const changed = Object.keys(body).length > 0;
  return {
    ...newChange(ctx.reader.target, ctx.scope, KIND, "group"),
    action: changed ? "update" : "no-op",
    diff: changed ? diffValues(live, wanted) : [],
    requests: changed ? [{ method: "PUT", path: ctx.path, body }] : [],
    live_fingerprint: fingerprint(live),
  };
}

/**
 * What GitLab's documentation says a group's visibility means ("Project and group visibility",
 * doc/user/public_access.md).
 */
const VISIBILITY_NOTES: Record<string, string> = {
  private: "GitLab: a private group and its projects are visible only to its members",
  internal: "GitLab: an internal group is visible to every signed-in user except external users",
  public:
    "GitLab: a public group and its public projects are visible to everyone, without signing in",
};

const RANK: Readonly<Record<string, number>> = { private: 0, internal: 1, public: 2 };

/**
 * A subgroup no more visible than its parent: GitLab refuses it ("internal is not allowed since the
 * parent group has a private visibility.", Group `visibility_level_allowed_by_parent`), so the
 * parent is read when a subgroup's visibility would widen, and the plan says so before anything is
 * sent. (One narrower than its projects or subgroups is refused by GitLab and reported as it
 * answers.)
 */
async function aboveParent(
  ctx: Context,
  wanted: string,
  answer: GroupAnswer,
): Promise<ChangeError | undefined> {
  if (answer.parent_id === null || answer.parent_id === undefined) return undefined;
  const parent = await ctx.reader.getOrAbsent(groupPath(answer.parent_id), groupAnswer);
  if (parent.kind === "error") return parent.error;
  if (parent.kind === "absent") return undefined;
  const ceiling = parent.data.visibility;
  if (ceiling === undefined || RANK[wanted]! <= RANK[ceiling]!) return undefined;
  return changeError(
    `visibility ${wanted} is wider than the parent group ${parent.data.full_path}'s (${ceiling}): GitLab refuses it ("${wanted} is not allowed since the parent group has a ${ceiling} visibility.")`,
  );
}

async function planVisibility(ctx: Context, wanted: string, answer: GroupAnswer): Promise<Change> {
  const base = newChange(ctx.reader.target, ctx.scope, KIND, "visibility");
  if (answer.visibility === undefined)
    return failed(ctx, "visibility", unreported(ctx, ["visibility"]));
  const live = { visibility: answer.visibility };
  if (answer.visibility === wanted) return { ...base, live_fingerprint: fingerprint(live) };
  if (RANK[wanted]! > RANK[answer.visibility]!) {
    const refused = await aboveParent(ctx, wanted, answer);
    if (refused !== undefined) return failed(ctx, "visibility", refused);
  }
  return {
    ...base,
    action: "update",
    diff: diffValues(live, { visibility: wanted }),
    requests: [{ method: "PUT", path: ctx.path, body: { visibility: wanted } }],
    live_fingerprint: fingerprint(live),
    gate: "visibility",
    notes: [VISIBILITY_NOTES[wanted]!],
  };
}

/** Plans one group's settings. */
export async function planGroupSettings(input: {
  reader: ResourceReader;
  group: string;
  value: GroupSettings;
}): Promise<Change[]> {
  const { reader, group, value } = input;
  const ctx: Context = { reader, path: groupPath(group), scope: group };
  const read = await reader.getOrAbsent(ctx.path, groupAnswer);
  if (read.kind === "absent" && value.create === true)
    return [await planCreate(reader, group, value)];
  if (read.kind !== "found") {
    const error =
      read.kind === "error"
        ? read.error
        : changeError(
            `group ${group} was not found (or ${reader.credential} cannot see it)${/^\d+$/.test(group) || !group.includes("/") ? "" : "; settings.create: true creates it"}`,
            "GET",
            ctx.path,
            404,
          );
    return [failed(ctx, "group", error)];
  }
  return [
    planFields(ctx, value, read.data),
    value.visibility === undefined
      ? undefined
      : await planVisibility(ctx, value.visibility, read.data),
  ].filter((change): change is Change => change !== undefined);
}
