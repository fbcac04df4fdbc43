import { mustFind, readFailure, type ResourceReader } from "../context.js";
import { GitlabNames, resolveLive, writtenEntry } from "../protected-ref-access.js";
import { ENVIRONMENT_SHAPE } from "./canonical.js";
import {
  type ApprovalRule,
  type DeployEntry,
  ENVIRONMENT_LEVELS,
  type EnvironmentSettings,
  type ProtectedEnvironments,
} from "./settings.js";

/**
 * A project's or a group's protected environments as they are live, additive: who may deploy,
 * the approval rules (`[]` for none, so none is managed) and `required_approval_count`.
 */
export async function exportEnvironments(
  reader: ResourceReader,
  path: string,
): Promise<ProtectedEnvironments | undefined> {
  const listed = await reader.list(path, undefined, ENVIRONMENT_SHAPE);
  // GitLab answers 403 (or 404 without the endpoint) where protected environments are not
  // available, below Premium: an export of a Free instance still writes the place's other keys.
  if (listed.kind === "absent" || (listed.kind === "error" && listed.error.status === 403))
    return undefined;
  const live = mustFind(listed, path);
  if (live.length === 0) return undefined;
  const names = new GitlabNames(reader);
  const items: Record<string, EnvironmentSettings> = {};
  for (const environment of live) {
    const deploy = await resolveLive(names, ENVIRONMENT_LEVELS, environment.deploy_access_levels);
    if (!deploy.ok) throw readFailure(deploy.error);
    const raw = environment.approval_rules ?? [];
    const rules = await resolveLive(names, ENVIRONMENT_LEVELS, raw);
    if (!rules.ok) throw readFailure(rules.error);
    const deployEntries = deploy.value.map((entry, index): DeployEntry => {
      const written = writtenEntry(entry.shown) as DeployEntry;
      const inheritance = environment.deploy_access_levels[index]!.group_inheritance_type;
      return typeof written === "object" && "group" in written && inheritance === 1
        ? { ...written, group_inheritance_type: 1 }
        : written;
    });
    const approvalRules = rules.value.map((entry, index): ApprovalRule => {
      const written = writtenEntry(entry.shown);
      const { required_approvals, group_inheritance_type } = raw[index]!;
      if (typeof written === "object" && "group" in written)
        return group_inheritance_type === 1
          ? { group: written.group, required_approvals, group_inheritance_type: 1 }
          : { group: written.group, required_approvals };
      if (typeof written === "object" && "user" in written)
        return { user: written.user, required_approvals };
      const level = written as Extract<ApprovalRule, { access_level: unknown }>["access_level"];
      return { access_level: level, required_approvals };
    });
    items[environment.name] = {
      deploy_access_levels: deployEntries,
      approval_rules: approvalRules,
      required_approval_count: environment.required_approval_count ?? 0,
    };
  }
  return { mode: "additive", items };
}
