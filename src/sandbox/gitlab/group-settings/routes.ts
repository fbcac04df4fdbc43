import {
  gitlabBadParameter,
  gitlabForbidden,
  HttpError,
  ok,
  parameters,
  type RequestContext,
  type Route,
} from "../http.js";
import { grapeBoolean, grapeInteger } from "../grape-values.js";
import { GITLAB_TIERS } from "../tiers.js";
import { visibleGroup } from "../world/access.js";
import type { Group, Visibility } from "../world/records.js";
import { groupAnswer } from "../world/shapes.js";
import {
  type BranchProtectionDefaults,
  GIT_ACCESS_PROTOCOLS,
  GROUP_BOOLEAN_FIELDS,
  groupSettingsOf,
  type GroupSettingsRecord,
  PREMIUM_FIELDS,
  PROJECT_CREATION_LEVELS,
  PROTECTION_LEVELS,
  SHARED_RUNNERS_SETTINGS,
  SUBGROUP_CREATION_LEVELS,
  WIKI_ACCESS_LEVELS,
} from "./records.js";

/**
 * GitLab's "Update group attributes" (`PUT /groups/:id`, doc/api/groups.md: "Only available to
 * group owners and administrators") for the settings this area keeps. Types and enumerated values
 * are checked by the family against the page's table (request-parameters.json) before this runs;
 * `default_branch_protection_defaults`, a hash the table's checker has no type for, is checked
 * here. Then the model's validations answer 400 `{"message": {attribute: [message]}}`. Nothing is
 * changed unless every check passes.
 */

const ENUMS: Readonly<Record<string, readonly string[]>> = {
  project_creation_level: PROJECT_CREATION_LEVELS,
  subgroup_creation_level: SUBGROUP_CREATION_LEVELS,
  shared_runners_setting: SHARED_RUNNERS_SETTINGS,
  enabled_git_access_protocol: GIT_ACCESS_PROTOCOLS,
  wiki_access_level: WIKI_ACCESS_LEVELS,
};

const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 1, public: 2 };

export interface Update {
  visibility?: Visibility;
  settings: Partial<GroupSettingsRecord>;
}

/** `default_branch_protection_defaults` as Grape's hash of `allowed_to_push` and the rest. */
function protectionDefaults(value: unknown): Partial<BranchProtectionDefaults> {
  const invalid = () => gitlabBadParameter("default_branch_protection_defaults is invalid");
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw invalid();
  const given = value as Record<string, unknown>;
  const result: Partial<BranchProtectionDefaults> = {};
  for (const key of ["allowed_to_push", "allowed_to_merge"] as const) {
    const levels = given[key];
    if (levels === undefined) continue;
    if (!Array.isArray(levels)) throw invalid();
    result[key] = levels.map((entry: unknown) => {
      const level = (entry as { access_level?: unknown } | null)?.access_level;
      const number = typeof level === "string" ? Number(level) : level;
      if (!(PROTECTION_LEVELS as readonly unknown[]).includes(number)) {
        throw gitlabBadParameter(
          `default_branch_protection_defaults[${key}][access_level] does not have a valid value`,
        );
      }
      return { access_level: number as number };
    });
  }
  for (const key of ["allow_force_push", "developer_can_initial_push"] as const) {
    if (given[key] === undefined) continue;
    const flag = grapeBoolean(given[key]);
    if (typeof flag !== "boolean")
      throw gitlabBadParameter(`default_branch_protection_defaults[${key}] is invalid`);
    result[key] = flag;
  }
  return result;
}

/** The settings a write sets, over `current` (the group's, or a new group's defaults). */
export function readUpdate(ctx: RequestContext, current: GroupSettingsRecord): Update {
  const params = parameters(ctx);
  const update: Update = { settings: {} };
  const settings = update.settings as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (name === "visibility") update.visibility = value as Visibility;
    // Grape hands a string parameter given as null to the model as nil: no description, no
    // default branch of the group's own.
    else if (name === "description") settings[name] = value === null ? "" : String(value);
    else if (name === "default_branch") settings[name] = value === null ? null : String(value);
    else if (name === "two_factor_grace_period") settings[name] = grapeInteger(value);
    else if ((GROUP_BOOLEAN_FIELDS as readonly string[]).includes(name)) {
      settings[name] = grapeBoolean(value);
    } else if (ENUMS[name] !== undefined) settings[name] = value;
    else if (name === "default_branch_protection_defaults") {
      settings[name] = {
        ...current.default_branch_protection_defaults,
        ...protectionDefaults(value),
      };
    }
  }
  return update;
}

/** The lowest visibility a group may take: that of its most visible subgroup or project. */
function floorOf(
  ctx: RequestContext,
  group: Group,
): { level: Visibility; what: string } | undefined {
  let floor: { level: Visibility; what: string } | undefined;
  const consider = (level: Visibility, what: string) => {
    if (floor === undefined || VISIBILITY_RANK[level] > VISIBILITY_RANK[floor.level])
      floor = { level, what };
  };
  for (const project of ctx.world.projects.values()) {
    if (project.group === group) consider(project.visibility, "projects");
  }
  for (const child of ctx.world.groups.values()) {
    if (child.parent === group) consider(child.visibility, "sub-groups");
  }
  return floor;
}

/**
 * Group's validations (app/models/group.rb, `visibility_level_allowed_by_parent`,
 * `…_by_projects`, `…_by_sub_groups`; Namespace's description of at most 255 characters;
 * `two_factor_grace_period` a number of hours not below 0).
 */
export function validate(ctx: RequestContext, group: Group, update: Update): void {
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  if ((update.settings.description ?? "").length > 255)
    add("description", "is too long (maximum is 255 characters)");
  const grace = update.settings.two_factor_grace_period;
  if (grace !== undefined && grace < 0)
    add("two_factor_grace_period", "must be greater than or equal to 0");
  const visibility = update.visibility;
  if (visibility !== undefined) {
    const parent = group.parent?.visibility;
    if (parent !== undefined && VISIBILITY_RANK[visibility] > VISIBILITY_RANK[parent]) {
      add(
        "visibility_level",
        `${visibility} is not allowed since the parent group has a ${parent} visibility.`,
      );
    }
    const floor = floorOf(ctx, group);
    if (floor !== undefined && VISIBILITY_RANK[visibility] < VISIBILITY_RANK[floor.level]) {
      add(
        "visibility_level",
        floor.what === "projects"
          ? `${visibility} is not allowed since this group contains projects with higher visibility.`
          : `${visibility} is not allowed since there are sub-groups with higher visibility.`,
      );
    }
  }
  if (Object.keys(errors).length > 0)
    throw new HttpError({ status: 400, body: { message: errors } });
}

/** Sets what a write validated sets: a Premium field only where the tier has it. */
export function applyUpdate(ctx: RequestContext, group: Group, update: Update): void {
  if (GITLAB_TIERS.indexOf(ctx.world.tier) < GITLAB_TIERS.indexOf("premium")) {
    for (const field of PREMIUM_FIELDS) delete update.settings[field];
  }
  // Only top-level groups have it (doc/api/groups.md).
  if (group.parent !== null) delete update.settings.prevent_sharing_groups_outside_hierarchy;
  if (update.visibility !== undefined) group.visibility = update.visibility;
  Object.assign(groupSettingsOf(group), update.settings);
}

export const groupSettingsRoutes: Route[] = [
  {
    method: "PUT",
    pattern: "/api/v4/groups/:id",
    operation: "PUT /api/v4/groups/{id}",
    handler: (ctx) => {
      const group = visibleGroup(ctx, ctx.params.id);
      if (!ctx.world.hasRole(group, ctx.caller, "owner")) throw gitlabForbidden();
      const update = readUpdate(ctx, groupSettingsOf(group));
      validate(ctx, group, update);
      applyUpdate(ctx, group, update);
      return ok(groupAnswer(ctx.world, ctx.base, group));
    },
  },
];
