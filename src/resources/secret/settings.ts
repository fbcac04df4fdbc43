/**
 * How Actions and Dependabot secrets are written: by name, each value a `${VAR}` reference read from
 * the environment (never written in the file). A repository's `secrets: {mode, actions, dependabot,
 * environments}`: its Actions and Dependabot secrets and its deployment environments' Actions
 * secrets (GitHub has no Dependabot secrets of environments); an organization's `secrets: {mode,
 * actions, dependabot}`, each secret with the repositories that may use it.
 */
import * as z from "zod";
import { closed, secretReference } from "../../config/fields.js";
import type { Secret } from "../../core/secret.js";
import {
  actionsName,
  checkNames,
  checkSharing,
  selectedRepositories,
  visibility,
} from "../actions-names.js";
import { type Mode, modeField } from "../collection.js";

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

export const repositorySecrets = closed({
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

export const organizationSecrets = closed({
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
export const REPOSITORY_SECRET_PATHS = [
  ["actions", "*"],
  ["dependabot", "*"],
  ["environments", "*", "actions", "*"],
] as const;
export const ORGANIZATION_SECRET_PATHS = [
  ["actions", "*", "value"],
  ["dependabot", "*", "value"],
] as const;

export interface RepositorySecrets {
  mode?: Mode;
  actions?: Record<string, Secret>;
  dependabot?: Record<string, Secret>;
  environments?: Record<string, { mode?: Mode; actions?: Record<string, Secret> }>;
}

export interface OrganizationSecret {
  value: Secret;
  visibility: "all" | "private" | "selected";
  selected_repositories?: string[];
}

export interface OrganizationSecrets {
  mode?: Mode;
  actions?: Record<string, OrganizationSecret>;
  dependabot?: Record<string, OrganizationSecret>;
}
