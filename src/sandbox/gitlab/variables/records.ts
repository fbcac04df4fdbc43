import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";

/**
 * A CI/CD variable of a project, a group or the instance (app/models/ci/variable.rb,
 * ci/group_variable.rb, ci/instance_variable.rb; an instance variable is never hidden and stays in
 * the scope `*`).
 */
export interface CiVariable {
  key: string;
  value: string;
  variable_type: "env_var" | "file";
  protected: boolean;
  masked: boolean;
  /** Masked and hidden (GitLab 17.4): set only on create; its value is never answered again. */
  hidden: boolean;
  raw: boolean;
  environment_scope: string;
  description: string | null;
}

/**
 * A project's, a group's or the instance's (kept by the world) variables, in the order they were
 * created (GitLab lists them by id).
 */
export const variablesOf = attached((_owner: Project | Group | GitlabWorld): CiVariable[] => []);
