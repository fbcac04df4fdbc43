import type { AccessEntry, ProtectedBranch, ProtectedTag } from "./records.js";

/**
 * GitLab's shapes of protections (docs, "Protected branches API" and "Protected tags API", at
 * gitlabhq/gitlabhq 017a6c12 and 0286e4c6). Every entry has its `id`, `access_level` and
 * `access_level_description`; "Users on GitLab Premium or Ultimate also see the user_id, group_id"
 * (null where unset), and `deploy_key_id` is shown on a deploy key's entry. A user's or group's
 * entry has `access_level` null, as the docs' examples show it. `unprotect_access_levels` and
 * `inherited` are Premium's ("Premium and Ultimate only").
 */

/** ProtectedRefAccess's human names of role levels. */
const ROLE_NAMES: Readonly<Record<number, string>> = {
  0: "No one",
  30: "Developers + Maintainers",
  40: "Maintainers",
  60: "Administrators",
};

export function accessEntry(entry: AccessEntry, premium: boolean): Record<string, unknown> {
  const { grantee } = entry;
  // Below Premium a seed's user or group entry (one a tier above made) still shows whom it names.
  const ids =
    premium || grantee.kind === "user" || grantee.kind === "group"
      ? {
          user_id: grantee.kind === "user" ? grantee.user.id : null,
          group_id: grantee.kind === "group" ? grantee.group.id : null,
        }
      : {};
  const deployKey = grantee.kind === "deploy_key" ? { deploy_key_id: grantee.key.id } : {};
  const description =
    grantee.kind === "role"
      ? (ROLE_NAMES[grantee.level] ?? String(grantee.level))
      : grantee.kind === "user"
        ? (grantee.user.name ?? grantee.user.username)
        : grantee.kind === "group"
          ? grantee.group.name
          : "Deploy key";
  return {
    id: entry.id,
    access_level: grantee.kind === "role" ? grantee.level : null,
    access_level_description: description,
    ...ids,
    ...deployKey,
  };
}

export function protectedBranch(
  branch: ProtectedBranch,
  premium: boolean,
  inherited: boolean,
): Record<string, unknown> {
  const entries = (list: AccessEntry[]) => list.map((entry) => accessEntry(entry, premium));
  return {
    id: branch.id,
    name: branch.name,
    push_access_levels: entries(branch.push),
    merge_access_levels: entries(branch.merge),
    ...(premium ? { unprotect_access_levels: entries(branch.unprotect) } : {}),
    allow_force_push: branch.allow_force_push,
    code_owner_approval_required: branch.code_owner_approval_required,
    ...(premium ? { inherited } : {}),
  };
}

export function protectedTag(tag: ProtectedTag, premium: boolean): Record<string, unknown> {
  return {
    name: tag.name,
    create_access_levels: tag.create.map((entry) => accessEntry(entry, premium)),
  };
}
