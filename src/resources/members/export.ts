import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import { exported } from "../exported.js";
import { levelName } from "../gitlab-access-levels.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { expiryOf, memberShape, roleOf } from "./canonical.js";
import { groupMembersSetting, type Members, projectMembersSetting } from "./settings.js";

/**
 * The direct members of a project or group as a configuration writes them: a level by name, with
 * its expiry and custom role (by name) where it has them. Inherited members are left out (they are the groups' above); the
 * list is additive, so a file exported and planned changes nothing.
 */
async function exportAt(
  reader: ResourceReader,
  path: string,
  schema: typeof projectMembersSetting.schema,
): Promise<Members | undefined> {
  const listed = mustFind(await reader.list(`${path}/members`, undefined, memberShape), path);
  if (listed.length === 0) return undefined;
  const users: Record<string, unknown> = {};
  for (const member of listed) {
    const level = levelName(member.access_level);
    const expires = expiryOf(member);
    const role = roleOf(member);
    users[member.username] =
      expires === null && role === null
        ? level
        : {
            access_level: level,
            ...(expires === null ? {} : { expires_at: expires }),
            ...(role === null ? {} : { member_role: role }),
          };
  }
  return exported(schema, { users }, `${path}/members`) as Members;
}

export function exportProjectMembers(
  reader: ResourceReader,
  project: RepoRef,
): Promise<Members | undefined> {
  return exportAt(reader, projectPath(project), projectMembersSetting.schema);
}

export function exportGroupMembers(
  reader: ResourceReader,
  group: string,
): Promise<Members | undefined> {
  return exportAt(reader, groupPath(group), groupMembersSetting.schema);
}
