/**
 * How Actions variables are written. A repository's `variables: {mode, items, environments}` holds
 * its own (`items: {NAME: value}`) and its deployment environments' (`environments: {production:
 * {mode, items}}`); an organization's `variables: {mode, items}` holds each variable's value and which
 * of its repositories may use it.
 */
import * as z from "zod";
import { closed } from "../../config/fields.js";
import { defineSetting } from "../../config/spec.js";
import {
  actionsName,
  checkNames,
  checkSharing,
  selectedRepositories,
  visibility,
} from "../actions-names.js";
import { definedMembers } from "../actions-collections.js";
import { modeField } from "../collection.js";

/** "Configuration variables can store up to 48 KB of data each" (GitHub's limits for variables). */
const MAX_VALUE = 48 * 1024;

const value = z
  .string()
  .min(1)
  .max(MAX_VALUE)
  .describe("The variable's value: text (quote numbers and booleans), at most 48 KB.");

const items = z
  .record(actionsName("variable"), value)
  .optional()
  .describe("Variables by name (letters, digits and _; GitHub does not tell case apart).");

const environment = closed({
  mode: modeField("variables"),
  items,
}).describe("An environment's variables; mode defaults to the variables' own.");

const repositoryVariables = closed({
  mode: modeField("variables"),
  items,
  environments: z
    .record(z.string().min(1).max(255), environment)
    .optional()
    .describe(
      "Variables of the repository's deployment environments, by environment name; the environment must exist (the environments setting creates it).",
    ),
})
  .superRefine((written, ctx) => {
    checkNames(written.items, ["items"], ctx);
    for (const [name, env] of Object.entries(written.environments ?? {})) {
      checkNames(env.items, ["environments", name, "items"], ctx);
    }
  })
  .describe("The repository's GitHub Actions variables.");

const organizationVariable = closed({
  value,
  visibility,
  selected_repositories: selectedRepositories,
}).superRefine(checkSharing);

const organizationVariables = closed({
  mode: modeField("variables"),
  items: z
    .record(actionsName("variable"), organizationVariable)
    .optional()
    .describe("Variables by name, each with its value and the repositories that may use it."),
})
  .superRefine((written, ctx) => checkNames(written.items, ["items"], ctx))
  .describe("The organization's GitHub Actions variables.");

export type RepositoryVariables = z.output<typeof repositoryVariables>;
export type OrganizationVariable = z.output<typeof organizationVariable>;
export type OrganizationVariables = z.output<typeof organizationVariables>;

const print = () => [{ kind: "variable", name: "*", path: [] }];

export const repositoryVariablesSetting = defineSetting({
  key: "variables",
  schema: repositoryVariables,
  defines: (value) =>
    definedMembers(
      "variable",
      value,
      [{ key: "items", prefix: "", items: value.items }],
      (env) => ({
        key: "items",
        items: env.items,
      }),
    ),
  print,
  // GitHub keeps variables in plain text: a reference there must be marked public.
  plain: [
    ["items", "*"],
    ["environments", "*", "items", "*"],
  ],
});

export const organizationVariablesSetting = defineSetting({
  key: "variables",
  schema: organizationVariables,
  defines: (value) =>
    definedMembers("variable", value, [{ key: "items", prefix: "", items: value.items }]),
  print,
  plain: [["items", "*", "value"]],
});
