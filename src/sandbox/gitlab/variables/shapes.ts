import type { CiVariable } from "./records.js";

/**
 * A variable as GitLab's API answers it (lib/api/entities/ci/variable.rb): a hidden variable's
 * value is null (app/models/ci/variable_value.rb `variable.hidden? ? nil : variable.value`).
 */
export function variable(value: CiVariable): Record<string, unknown> {
  return {
    variable_type: value.variable_type,
    key: value.key,
    value: value.hidden ? null : value.value,
    hidden: value.hidden,
    protected: value.protected,
    masked: value.masked,
    raw: value.raw,
    environment_scope: value.environment_scope,
    description: value.description,
  };
}

/**
 * An instance variable as GitLab answers it: the same entity, without `hidden` and
 * `environment_scope`, which it exposes only for records that have them (Ci::InstanceVariable
 * has neither).
 */
export function instanceVariable(value: CiVariable): Record<string, unknown> {
  return {
    variable_type: value.variable_type,
    key: value.key,
    value: value.value,
    protected: value.protected,
    masked: value.masked,
    raw: value.raw,
    description: value.description,
  };
}
