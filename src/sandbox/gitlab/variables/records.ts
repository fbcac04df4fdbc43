import { attached } from "../../core/attached.js";
import type { Group, Project } from "../world/records.js";

/** A CI/CD variable of a project or a group (app/models/ci/variable.rb, ci/group_variable.rb). */
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

/** A project's or a group's variables, in the order they were created (GitLab lists them by id). */
export const variablesOf = attached((_owner: Project | Group): CiVariable[] => []);
