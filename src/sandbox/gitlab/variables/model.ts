import type { CiVariable } from "./records.js";

/**
 * GitLab's validations of a CI/CD variable, in the order its models declare them, with their
 * messages (rendered by `render_validation_error!` as 400 `{"message": {<field>: [...]}}`):
 * - key (app/models/concerns/ci/has_variable.rb): present, at most 255, "can contain only
 *   letters, digits and '_'."; unique per place and scope (app/models/ci/variable.rb:
 *   "(%{value}) has already been taken");
 * - value (app/models/concerns/ci/maskable.rb): a masked value must match `REGEX`
 *   (`[a-zA-Z0-9_+=/@:.~-]{8,}`), a masked raw one `MASK_AND_RAW_REGEX` (`\S{8,}`): "is invalid";
 * - environment_scope (lib/gitlab/regex.rb `environment_scope_regex`, HasEnvironmentScope);
 * - description: at most 255 (app/models/ci/variable.rb);
 * - hidden (app/models/concerns/ci/hidable_variable.rb): on create "should be true when variable
 *   is hidden" on `masked`; on update "Only new variables can be set as masked and hidden." or
 *   "The visibility setting cannot be changed for masked and hidden variables." on `base`.
 */

const KEY = /^[a-zA-Z0-9_]+$/;
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
const MASKABLE_RAW = /^\S{8,}$/;
const SCOPE = /^[a-zA-Z0-9_/${}. *-]+$/;
const TOO_LONG = "is too long (maximum is 255 characters)";

export type Problems = Record<string, string[]>;

/**
 * What GitLab refuses of `candidate` among `all` (the place's variables, `stored` among them when
 * it is an update): {} when nothing.
 */
export function problemsOf(
  candidate: CiVariable,
  all: readonly CiVariable[],
  stored?: CiVariable,
): Problems {
  const problems: Problems = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (candidate.key === "") add("key", "can't be blank");
  if (candidate.key.length > 255) add("key", TOO_LONG);
  if (candidate.key !== "" && !KEY.test(candidate.key)) {
    add("key", "can contain only letters, digits and '_'.");
  }
  const taken = all.some(
    (other) =>
      other !== stored &&
      other.key === candidate.key &&
      other.environment_scope === candidate.environment_scope,
  );
  if (taken) add("key", `(${candidate.key}) has already been taken`);
  if (candidate.masked && !(candidate.raw ? MASKABLE_RAW : MASKABLE).test(candidate.value)) {
    add("value", "is invalid");
  }
  if (candidate.environment_scope.length > 255) add("environment_scope", TOO_LONG);
  if (!SCOPE.test(candidate.environment_scope)) {
    add(
      "environment_scope",
      "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
    );
  }
  if ((candidate.description ?? "").length > 255) add("description", TOO_LONG);
  if (stored === undefined) {
    if (candidate.hidden && !candidate.masked)
      add("masked", "should be true when variable is hidden");
  } else if (candidate.hidden !== stored.hidden) {
    add("base", "Only new variables can be set as masked and hidden.");
  } else if (stored.hidden && candidate.masked !== stored.masked) {
    add("base", "The visibility setting cannot be changed for masked and hidden variables.");
  }
  return problems;
}

/**
 * The instance's own rules besides a variable's (app/models/ci/instance_variable.rb): a value of at
 * most 10,000 characters ("The value of the provided variable exceeds the %{count} character
 * limit"), and — checked on create only (Limitable, `limit_scope = GLOBAL_SCOPE`) — at most
 * `ci_instance_level_variables` of them, 25 unless an administrator changes it
 * (doc/administration/instance_limits.md): "Maximum number of %{name} (%{count}) exceeded"
 * (app/models/concerns/limitable.rb, the name humanized).
 */
export const INSTANCE_VARIABLES_LIMIT = 25;

export function instanceProblemsOf(
  candidate: CiVariable,
  all: readonly CiVariable[],
  stored?: CiVariable,
): Problems {
  const problems = problemsOf(candidate, all, stored);
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (candidate.value.length > 10_000) {
    add("value", "The value of the provided variable exceeds the 10000 character limit");
  }
  if (stored === undefined && all.length >= INSTANCE_VARIABLES_LIMIT) {
    add(
      "base",
      `Maximum number of ci instance level variables (${INSTANCE_VARIABLES_LIMIT}) exceeded`,
    );
  }
  return problems;
}
