/**
 * How Actions and Dependabot secrets are written: by name, each value a `${VAR}` reference read from
 * the environment (never written in the file). A repository's `secrets: {mode, actions, dependabot,
 * environments}`: its Actions and Dependabot secrets and its deployment environments' Actions
 * secrets (GitHub has no Dependabot secrets of environments); an organization's `secrets: {mode,
 * actions, dependabot}`, each secret with the repositories that may use it.
 */
import * as z from "zod";
import { closed, secretReference } from "../../config/fields.js";
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

const reference = secretReference("The secret's value");

const named = <T extends z.ZodType>(value: T, what: string) =>
  z
    .record(actionsName("secret"), value)
    .optional()
    .describe(`${what} by name (letters, digits and _; GitHub does not tell case apart).`);

const environment = closed({
  mode: modeField("secrets"),
  actions: named(reference, "The environment's Actions secrets"),
}).describe("An environment's secrets; mode defaults to the secrets' own.");

const repositorySecrets = closed({
  mode: modeField("secrets"),
  actions: named(reference, "Actions secrets"),
  dependabot: named(reference, "Dependabot secrets"),
  environments: z
    .record(z.string().min(1).max(255), environment)
    .optional()
    .describe(
      "Actions secrets of the repository's deployment environments, by environment name; the environment must exist (the environments setting creates it).",
    ),
})
  .superRefine((written, ctx) => {
    checkNames(written.actions, ["actions"], ctx);
    checkNames(written.dependabot, ["dependabot"], ctx);
    for (const [name, env] of Object.entries(written.environments ?? {})) {
      checkNames(env.actions, ["environments", name, "actions"], ctx);
    }
  })
  .describe(
    "The repository's secrets; a collection not written is left alone (write it empty to delete all under authoritative).",
  );

const organizationSecret = closed({
  value: reference,
  visibility,
  selected_repositories: selectedRepositories,
}).superRefine(checkSharing);

const organizationSecrets = closed({
  mode: modeField("secrets"),
  actions: named(
    organizationSecret,
    "Actions secrets, each with the repositories that may use it,",
  ),
  dependabot: named(
    organizationSecret,
    "Dependabot secrets, each with the repositories that may use it,",
  ),
})
  .superRefine((written, ctx) => {
    checkNames(written.actions, ["actions"], ctx);
    checkNames(written.dependabot, ["dependabot"], ctx);
  })
  .describe("The organization's secrets; a collection not written is left alone.");

/** Where a secret reference sits in each part's value (config/secret-paths.ts). */
const REPOSITORY_SECRET_PATHS = [
  ["actions", "*"],
  ["dependabot", "*"],
  ["environments", "*", "actions", "*"],
] as const;
const ORGANIZATION_SECRET_PATHS = [
  ["actions", "*", "value"],
  ["dependabot", "*", "value"],
] as const;

export type RepositorySecrets = z.output<typeof repositorySecrets>;
export type OrganizationSecret = z.output<typeof organizationSecret>;
export type OrganizationSecrets = z.output<typeof organizationSecrets>;

const print = () => [{ kind: "secret", name: "*", path: [] }];

export const repositorySecretsSetting = defineSetting({
  key: "secrets",
  schema: repositorySecrets,
  defines: (value) =>
    definedMembers(
      "secret",
      value,
      [
        { key: "actions", prefix: "", items: value.actions },
        { key: "dependabot", prefix: "dependabot/", items: value.dependabot },
      ],
      (env) => ({ key: "actions", items: env.actions }),
    ),
  print,
  secrets: REPOSITORY_SECRET_PATHS,
});

export const organizationSecretsSetting = defineSetting({
  key: "secrets",
  schema: organizationSecrets,
  defines: (value) =>
    definedMembers("secret", value, [
      { key: "actions", prefix: "", items: value.actions },
      { key: "dependabot", prefix: "dependabot/", items: value.dependabot },
    ]),
  print,
  secrets: ORGANIZATION_SECRET_PATHS,
});

/** As written in a file: every secret a `${NAME}` reference (what export writes). */
export type WrittenRepositorySecrets = z.input<typeof repositorySecrets>;
export type WrittenOrganizationSecrets = z.input<typeof organizationSecrets>;
