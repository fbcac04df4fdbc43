import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project, User } from "../world/records.js";

/**
 * A protected environment of a project or a group (docs, "Protected environments API"): who may
 * deploy, its approval rules and the older unified approval count. Entries and rules have ids from
 * one sequence of the instance.
 */
export type Grantee =
  { kind: "role"; level: number } | { kind: "user"; user: User } | { kind: "group"; group: Group };

export interface DeployLevel {
  id: number;
  principal: Grantee;
  groupInheritanceType: number;
}

export interface ApprovalRule extends DeployLevel {
  requiredApprovals: number;
}

export interface ProtectedEnvironment {
  name: string;
  deployAccessLevels: DeployLevel[];
  approvalRules: ApprovalRule[];
  requiredApprovalCount: number;
}

/** A project's or a group's protected environments, by name. */
export const protectedEnvironmentsOf = attached(
  (_owner: Project | Group) => new Map<string, ProtectedEnvironment>(),
);

/** A project's environments (GitLab's Environment records), by name: what a deployment targets. */
export const environmentsOf = attached((_project: Project) => new Set<string>());

export const entryIds = attached((_world: GitlabWorld) => ({ next: 1 }));
