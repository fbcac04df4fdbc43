import { HttpError } from "../http.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";
import { settledMember } from "../world/joined.js";
import { pushingKey } from "../deploy-keys/records.js";
import { type AccessEntry, type Grantee, newEntry } from "./records.js";

/**
 * The access-level entries a write names (`allowed_to_push` …, Premium; `push_access_level` …),
 * checked as GitLab's ProtectedRefAccess validates them. A failed validation answers 422 with the
 * record's full messages, `{"message": ["Push access levels user is not a member of the project"]}`
 * (the answer gitlabform/gitlabform#521 quotes; "Push access levels access level has already been
 * taken", GitLab's OpenAPI description of the PATCH, 422). Nothing is written unless all pass.
 */

/** How GitLab names each list in its messages (the association's human name). */
export const LIST_LABELS = {
  push: "Push access levels",
  merge: "Merge access levels",
  unprotect: "Unprotect access levels",
  create: "Create access levels",
} as const;
export type ListName = keyof typeof LIST_LABELS;

export function unprocessable(messages: string[]): HttpError {
  return new HttpError({ status: 422, body: { message: messages } });
}

export function recordNotFound(): HttpError {
  return new HttpError({ status: 404, body: { message: "404 Not found" } });
}

/** One item of an `allowed_to_*` array: a new entry, an entry's replacement, or its removal. */
export interface EntryItem {
  id?: number;
  destroy: boolean;
  grantee?: Grantee;
}

function integer(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/**
 * Who an item names, as ProtectedRefAccess#type decides it: a user when `user_id` is set, else a
 * group, else a deploy key, else a role. Unknown users, groups and keys are validation errors.
 */
function granteeOf(
  world: GitlabWorld,
  project: Project,
  label: string,
  item: Record<string, unknown>,
  problems: string[],
): Grantee | undefined {
  const userId = integer(item.user_id);
  if (userId !== undefined) {
    const user = world.users.get(userId);
    if (user === undefined) problems.push(`${label} user can't be blank`);
    else if (!settledMember(world, project, user))
      problems.push(`${label} user is not a member of the project`);
    else return { kind: "user", user };
    return undefined;
  }
  const groupId = integer(item.group_id);
  if (groupId !== undefined) {
    const group = world.groups.get(groupId);
    if (group === undefined) problems.push(`${label} group can't be blank`);
    else if (!above(project, group))
      problems.push(`${label} group does not have access to the project`);
    else return { kind: "group", group };
    return undefined;
  }
  const keyId = integer(item.deploy_key_id);
  if (keyId !== undefined) {
    const key = pushingKey(project, keyId);
    if (key === undefined) problems.push(`${label} deploy key is not enabled for this project`);
    else return { kind: "deploy_key", key };
    return undefined;
  }
  const level = integer(item.access_level);
  if (level === undefined) {
    problems.push(`${label} access level can't be blank`);
    return undefined;
  }
  return { kind: "role", level };
}

/**
 * Whether a group may be named in a project's protection. GitLab asks that the project be shared
 * with the group (docs: "each group must have this project shared"); the sandbox has no sharing
 * yet (issue #36, item 6), so it takes the groups the project lives under, whose members are its
 * members.
 */
function above(project: Project, group: Group): boolean {
  for (let at: Group | null = project.group; at !== null; at = at.parent) {
    if (at === group) return true;
  }
  return false;
}

/** The items of an `allowed_to_*` parameter; anything but an array of objects is a 400 already. */
export function readItems(
  world: GitlabWorld,
  project: Project,
  list: ListName,
  value: unknown,
  problems: string[],
): EntryItem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw): EntryItem[] => {
    if (raw === null || typeof raw !== "object") return [];
    const item = raw as Record<string, unknown>;
    const id = integer(item.id);
    const destroy = item._destroy === true || item._destroy === "true";
    if (destroy) return id === undefined ? [] : [{ id, destroy }];
    const grantee = granteeOf(world, project, LIST_LABELS[list], item, problems);
    return [
      { ...(id === undefined ? {} : { id }), destroy: false, ...(grantee ? { grantee } : {}) },
    ];
  });
}

/** A key that two entries of one list may not share (GitLab's uniqueness validations). */
function uniqueKey(grantee: Grantee): string {
  switch (grantee.kind) {
    case "role":
      return `access level:${grantee.level}`;
    case "user":
      return `user:${grantee.user.id}`;
    case "group":
      return `group:${grantee.group.id}`;
    case "deploy_key":
      return `deploy key:${grantee.key.id}`;
  }
}

/**
 * The list after applying items to `current`: removals by id, replacements by id, additions; an id
 * the list lacks is ActiveRecord's RecordNotFound, GitLab's 404. Two entries of one role level,
 * user, group or key are refused as "… has already been taken" — but entries of different levels
 * may stand side by side (`No one` beside `Maintainers`: the pile-up of gitlab-org/gitlab#551595).
 */
export function applyItems(
  world: GitlabWorld,
  list: ListName,
  current: readonly AccessEntry[],
  items: readonly EntryItem[],
  problems: string[],
): AccessEntry[] {
  let next = [...current];
  for (const item of items) {
    if (item.id !== undefined) {
      const index = next.findIndex((entry) => entry.id === item.id);
      if (index < 0) throw recordNotFound();
      if (item.destroy) next = next.filter((_, at) => at !== index);
      else if (item.grantee !== undefined) next[index] = { id: item.id, grantee: item.grantee };
    } else if (item.grantee !== undefined) {
      next.push(newEntry(world, item.grantee));
    }
  }
  const seen = new Set<string>();
  for (const entry of next) {
    const key = uniqueKey(entry.grantee);
    if (seen.has(key)) {
      problems.push(
        `${LIST_LABELS[list]} ${key.slice(0, key.indexOf(":"))} has already been taken`,
      );
    }
    seen.add(key);
  }
  return next;
}

/** A scalar level parameter (`push_access_level` …) as an item, when given. */
export function levelItem(value: unknown): EntryItem[] {
  const level = integer(value);
  return level === undefined ? [] : [{ destroy: false, grantee: { kind: "role", level } }];
}
