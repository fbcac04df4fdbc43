/**
 * A subgroup this plan creates (`create: true`): one `POST /groups` with its parent's id, its
 * path (and name) from the last segment of the full path written, and every settings field
 * written (GitLab's "Create a group" takes the attributes "Update group attributes" does), gated
 * by --allow-create as a project's creation is. The parent must exist: a plan creates one level
 * at a time. A visibility wider than the parent's is refused here, as GitLab refuses it
 * (`visibility_level_allowed_by_parent`).
 */
import { type Change, newChange } from "../../core/plan.js";
import { changeError, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { groupPath } from "../gitlab-paths.js";
import { groupAnswer, KIND, protectionBody, writtenValue } from "./canonical.js";
import { type GroupSettings, settingsFields } from "./settings.js";

const RANK: Readonly<Record<string, number>> = { private: 0, internal: 1, public: 2 };

export async function planCreate(
  reader: ResourceReader,
  group: string,
  value: GroupSettings,
): Promise<Change> {
  const base = newChange(reader.target, group, KIND, "group");
  const cut = group.lastIndexOf("/");
  const parentPath = group.slice(0, cut);
  const path = group.slice(cut + 1);
  const parent = await reader.getOrAbsent(groupPath(parentPath), groupAnswer);
  if (parent.kind === "error") return { ...base, error: parent.error };
  if (parent.kind === "absent") {
    return {
      ...base,
      error: changeError(
        `group ${group} cannot be created: its parent ${parentPath} was not found (or ${reader.credential} cannot see it); create the parent first`,
        "GET",
        groupPath(parentPath),
        404,
      ),
    };
  }
  const ceiling = parent.data.visibility;
  if (value.visibility !== undefined && ceiling !== undefined) {
    if (RANK[value.visibility]! > RANK[ceiling]!) {
      return {
        ...base,
        error: {
          ...changeError(
            `visibility ${value.visibility} is wider than the parent group ${parentPath}'s (${ceiling}): GitLab refuses it ("${value.visibility} is not allowed since the parent group has a ${ceiling} visibility.")`,
          ),
          field: ["visibility"],
        },
      };
    }
  }
  const fields: Record<string, unknown> = {};
  const sent: Record<string, unknown> = {};
  for (const [field, written] of Object.entries(settingsFields(value))) {
    fields[field] = writtenValue(field, written);
    sent[field] =
      field === "default_branch_protection_defaults"
        ? protectionBody(fields[field] as Record<string, unknown>)
        : written;
  }
  return {
    ...base,
    action: "create",
    diff: diffValues({}, fields),
    requests: [
      {
        method: "POST",
        path: "/api/v4/groups",
        body: { name: path, path, parent_id: parent.data.id, ...sent },
      },
    ],
    live_fingerprint: fingerprint(null),
    step: "create",
    gate: "create",
    notes: [
      `created with POST /api/v4/groups under ${parentPath} (id ${parent.data.id}); forgeplan never deletes a group`,
    ],
  };
}
