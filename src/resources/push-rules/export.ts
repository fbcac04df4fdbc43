import type { RepoRef, ResourceReader } from "../context.js";
import { readFailure } from "../context.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import { canonicalRule, projectPushRuleAnswer } from "./canonical.js";
import { readGroupRule } from "./plan.js";
import type { PushRule } from "./settings.js";

/**
 * The push rule that reproduces the live one, every field; nothing where there is none. A project
 * whose read answers 404 has nothing to export (GitLab's answer where push rules are not available:
 * a Free instance's export still writes the project's other keys); an error or a wrong shape fails
 * the export with its read named.
 */
export async function exportProjectPushRule(
  reader: ResourceReader,
  project: RepoRef,
): Promise<PushRule | undefined> {
  const path = `${projectPath(project)}/push_rule`;
  const read = await reader.getOrAbsent(path, projectPushRuleAnswer);
  if (read.kind === "error") throw readFailure(read.error);
  if (read.kind === "absent" || read.data === null) return undefined;
  return canonicalRule(read.data);
}

/** A group's push rule; nothing where GitLab answers 404 (no rule, or none available). */
export async function exportGroupPushRule(
  reader: ResourceReader,
  group: string,
): Promise<PushRule | undefined> {
  const place = { reader, path: `${groupPath(group)}/push_rule`, scope: group };
  const live = await readGroupRule(place);
  if (live.kind === "error") throw readFailure(live.error);
  return live.kind === "found" ? canonicalRule(live.rule) : undefined;
}
