/**
 * How GitLab CI/CD variables are written, for a project (`projects[].variables`), a group
 * (`groups[].variables`) and the instance (`instance[].variables`, keys only): `variables: {mode, items: {<name>: {value, …}}}`, the shape of GitHub's
 * `variables`. A variable is one key in one environment scope (GitLab's identity: the same key may
 * exist once per scope), so an item's name is its key for the scope `*` (`DEPLOY_TOKEN`) and
 * `KEY@scope` for any other (`DEPLOY_TOKEN@production`, `API_URL@review/*`). Every value is a
 * `${NAME}` reference read from the environment, like a GitHub secret: GitLab returns values, and
 * forgeplan compares them exactly but never prints them.
 */
import * as z from "zod";
import { closed, orNull, secretReference } from "../../config/fields.js";
import { defineSetting, type PrintBlock } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";

/** GitLab's key (app/models/concerns/ci/has_variable.rb): letters, digits and `_`, at most 255. */
export const KEY = /^[A-Za-z0-9_]{1,255}$/;
/**
 * An environment scope (lib/gitlab/regex.rb `environment_scope_regex`): "can contain only letters,
 * digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"; at most 255 (HasEnvironmentScope).
 */
export const SCOPE = /^[a-zA-Z0-9_/${}. *-]{1,255}$/;
/** The scope a variable has when none is given (docs, "Create a variable": "Default: `*`"). */
export const ALL_SCOPES = "*";

/** A written name as GitLab's identity: its key and environment scope. */
export function identityOf(name: string): { key: string; scope: string } {
  const at = name.indexOf("@");
  return at < 0
    ? { key: name, scope: ALL_SCOPES }
    : { key: name.slice(0, at), scope: name.slice(at + 1) };
}

/** The name a variable is written and addressed by. */
export function nameOf(key: string, scope: string): string {
  return scope === ALL_SCOPES ? key : `${key}@${scope}`;
}

/** Why a written name is not one, or undefined. */
function nameProblem(name: string): string | undefined {
  const { key, scope } = identityOf(name);
  if (!KEY.test(key)) {
    return `${JSON.stringify(key)} is not a GitLab variable key: letters, digits and _ only, at most 255`;
  }
  if (name.includes("@") && scope === ALL_SCOPES) {
    return `write ${key} for the environment scope * (the default), not ${key}@*`;
  }
  if (!SCOPE.test(scope)) {
    return `environment scope ${JSON.stringify(scope)} can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces (at most 255)`;
  }
  return undefined;
}

/** The fields a variable of every place has (GitLab's Ci::Variable entity). */
const FIELDS = {
  value: secretReference("The variable's value"),
  variable_type: z
    .enum(["env_var", "file"])
    .optional()
    .describe(
      "env_var (GitLab's default) or file: the job gets a path to a file holding the value.",
    ),
  protected: z
    .boolean()
    .optional()
    .describe("Only pipelines of protected branches and tags get it (GitLab's default: false)."),
  masked: z
    .boolean()
    .optional()
    .describe(
      "Masked in job logs (GitLab's default: false). GitLab masks only values of 8 or more characters from a-z A-Z 0-9 _ + = / @ : . ~ - (raw: any but whitespace).",
    ),
  raw: z
    .boolean()
    .optional()
    .describe("Not expanded: $OTHER in the value stays as written (GitLab's default: false)."),
  description: orNull(z.string().max(255))
    .optional()
    .describe("What the variable is for, at most 255 characters; null for none."),
};

const variable = closed({
  ...FIELDS,
  masked_and_hidden: z
    .boolean()
    .optional()
    .describe(
      "Masked and hidden: GitLab never shows the value again, so it is compared by presence and sent again only with --rotate-secrets or --rotate-secret NAME. GitLab sets it only when it creates a variable: a change deletes the variable and creates it again.",
    ),
})
  .refine((written) => !(written.masked_and_hidden === true && written.masked === false), {
    error: "a masked_and_hidden variable is masked: leave masked out or write true",
    path: ["masked"],
  })
  .describe(
    "The variable, managed field by field: a field not written is left as GitLab has it (and created with GitLab's default).",
  );

const variablesSchema = closed({
  mode: modeField("variables"),
  items: z
    .record(
      z.string().superRefine((name, ctx) => {
        const problem = nameProblem(name);
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
      }),
      orNull(variable).describe(
        "The variable of this key and scope; null means no such variable may exist.",
      ),
    )
    .optional()
    .describe(
      "Variables by name: KEY for the environment scope * and KEY@scope for another (DEPLOY_TOKEN@production, API_URL@review/*); keys are compared as GitLab does, case included.",
    ),
});

export type GitlabVariable = z.output<typeof variable>;
export type GitlabVariables = z.output<typeof variablesSchema>;
/** As written in a file: every value a `${NAME}` reference (what export writes). */
export type WrittenGitlabVariables = z.input<typeof variablesSchema>;

/**
 * An instance variable (GitLab's instance-level CI/CD variables API, doc/api/
 * instance_level_ci_variables.md): no environment scope and no `masked_and_hidden` — neither is a
 * parameter of `POST /admin/ci/variables` (lib/api/admin/ci/variables.rb), and Ci::InstanceVariable
 * is not a HidableVariable — so its value is always readable and compared exactly.
 */
const instanceVariable = closed(FIELDS).describe(
  "The instance variable, managed field by field: a field not written is left as GitLab has it (and created with GitLab's default).",
);

/** Why a written instance variable's name is not one, or undefined. */
function instanceNameProblem(name: string): string | undefined {
  if (name.includes("@")) {
    return `instance variables have no environment scope (GitLab's instance-level API takes none): write ${JSON.stringify(name.slice(0, name.indexOf("@")))}`;
  }
  return KEY.test(name)
    ? undefined
    : `${JSON.stringify(name)} is not a GitLab variable key: letters, digits and _ only, at most 255`;
}

const instanceVariablesSchema = closed({
  mode: modeField("variables"),
  items: z
    .record(
      z.string().superRefine((name, ctx) => {
        const problem = instanceNameProblem(name);
        if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
      }),
      orNull(instanceVariable).describe(
        "The instance variable of this key; null means no such variable may exist.",
      ),
    )
    .optional()
    .describe("Instance variables by key; keys are compared as GitLab does, case included."),
});

export type GitlabInstanceVariables = z.output<typeof instanceVariablesSchema>;
export type WrittenGitlabInstanceVariables = z.input<typeof instanceVariablesSchema>;

/**
 * The longest value an instance variable holds (app/models/ci/instance_variable.rb: `validates
 * :value, length: { maximum: 10_000 }`; the API docs: "Maximum of 10,000 characters").
 */
export const INSTANCE_VALUE_LIMIT = 10_000;

function printVariables(value: GitlabVariables | GitlabInstanceVariables): PrintBlock[] {
  return [
    modeBlock("gitlab_variable", value.mode),
    ...Object.keys(value.items ?? {}).map((name): PrintBlock => ({
      kind: "gitlab_variable",
      name,
      path: ["items", name],
    })),
  ];
}

export const variablesSetting = defineSetting({
  key: "variables",
  schema: variablesSchema.describe(
    "GitLab CI/CD variables: mode (additive or authoritative) and items by KEY or KEY@environment-scope, each with its value as ${NAME} and GitLab's flags.",
  ),
  // Authoritative mode is about the whole listing: one setting, defined once per project or group.
  defines: () => [{ id: "variables", path: [], what: "the CI/CD variable list" }],
  print: printVariables,
  secrets: [["items", "*", "value"]],
});

/** `instance[].variables`: the GitLab instance's own variables, by key. */
export const instanceVariablesSetting = defineSetting({
  key: "variables",
  schema: instanceVariablesSchema.describe(
    "The GitLab instance's CI/CD variables, for every project (an administrator's token): mode (additive or authoritative) and items by KEY, each with its value as ${NAME} and GitLab's flags.",
  ),
  defines: () => [{ id: "variables", path: [], what: "the CI/CD variable list" }],
  print: printVariables,
  secrets: [["items", "*", "value"]],
});
