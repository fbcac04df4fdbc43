import * as z from "zod";
import { check, login } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { propertyPermissions } from "./app-permissions.js";
import { creationValues, definitionProblems, MAX_DEFINITIONS, setValues } from "./definitions.js";
import { definitionsOf, type PropertyDefinition } from "./records.js";
import { propertyRoutes } from "./routes.js";

/** GitHub's custom property names: a-z, A-Z, 0-9, _, -, $, #, at most 75 characters. */
const propertyName = z.string().regex(/^[A-Za-z0-9_$#-]{1,75}$/, "expected a custom property name");
const propertyValue = z.union([z.string(), z.array(z.string())]);

/** A custom property definition of an organization, as `PUT /orgs/{org}/properties/schema/{name}` takes it. */
const customProperty = z.strictObject({
  property_name: propertyName,
  value_type: z.enum(["string", "single_select", "multi_select", "true_false", "url"]),
  required: z.boolean().default(false),
  default_value: propertyValue.nullable().default(null),
  description: z.string().nullable().default(null),
  allowed_values: z.array(z.string()).nullable().default(null),
  values_editable_by: z.enum(["org_actors", "org_and_repo_actors"]).default("org_actors"),
  require_explicit_values: z.boolean().default(false),
});

/** How many teams the generated repositories are spread over, in turn: team-01 … team-10. */
export const GENERATED_TEAMS = 10;

/** The custom property the generated repositories carry, defined on acme when the seed does not. */
const TEAM_PROPERTY: PropertyDefinition = {
  property_name: "team",
  value_type: "string",
  required: false,
  default_value: null,
  description: "The team that owns the repository",
  allowed_values: null,
  values_editable_by: "org_actors",
  require_explicit_values: false,
};

/**
 * Custom properties: an organization's definitions and its repositories' values (read by rulesets'
 * conditions, and set by the settings kind's `custom_properties`).
 */
export const properties = githubArea({
  name: "properties",
  seed: {
    // `login` is the world's (the generator finds acme by it).
    organizations: { login, custom_properties: z.array(customProperty).default([]) },
    /** Explicit custom property values by name; required properties without one take their default. */
    repositories: { custom_properties: z.record(propertyName, propertyValue).default({}) },
  },
  demo: {
    organizations: [
      {
        login: "acme",
        custom_properties: [
          {
            property_name: "team",
            value_type: "string",
            description: "The team that owns the repository",
          },
          {
            property_name: "tier",
            value_type: "single_select",
            required: true,
            default_value: "standard",
            allowed_values: ["critical", "standard"],
            description: "How critical the service is",
          },
        ],
      },
    ],
    repositories: [
      { full_name: "acme/api", custom_properties: { team: "platform", tier: "critical" } },
      { full_name: "acme/web", custom_properties: { team: "web" } },
      { full_name: "acme/legacy", custom_properties: { team: "platform" } },
    ],
  },
  build(world, seed) {
    seed.organizations.forEach((orgSeed, index) => {
      const org = world.seeded.organizations[index];
      if (org === undefined) return;
      const path = ["organizations", index];
      check(
        orgSeed.custom_properties.length <= MAX_DEFINITIONS,
        [...path, "custom_properties"],
        `an organization has at most ${MAX_DEFINITIONS} custom properties`,
      );
      const definitions = definitionsOf(org);
      orgSeed.custom_properties.forEach((definition, at) => {
        const where = [...path, "custom_properties", at];
        const key = definition.property_name.toLowerCase();
        check(
          !definitions.has(key),
          where,
          `property '${definition.property_name}' is defined twice`,
        );
        const problems = definitionProblems(definition);
        check(problems.length === 0, where, problems.join("; "));
        definitions.set(key, definition);
      });
    });
    seed.repositories.forEach((repoSeed, index) => {
      const repo = world.seeded.repositories[index];
      const values = Object.entries(repoSeed.custom_properties);
      if (repo === undefined || values.length === 0) return;
      const at = ["repositories", index, "custom_properties"];
      check(repo.org !== null, at, "custom properties belong to repositories of organizations");
      const problems = setValues(
        repo.org,
        [repo],
        values.map(([property_name, value]) => ({ property_name, value })),
      );
      check(problems.length === 0, at, problems.join("; "));
    });
  },
  // Each generated repository is given a team (team-01 … team-10 in turn), defined on acme when the
  // seed does not define it.
  generate: () => ({
    repository: (entry, index) => {
      entry.custom_properties = {
        team: `team-${String(((index - 1) % GENERATED_TEAMS) + 1).padStart(2, "0")}`,
      };
    },
    lists: (seed) => {
      const acme = seed.organizations.find((org) => org.login.toLowerCase() === "acme");
      const defined = acme?.custom_properties.some(
        (property) => property.property_name.toLowerCase() === "team",
      );
      if (acme === undefined || defined) return {};
      return {
        organizations: seed.organizations.map((org) =>
          org === acme
            ? { ...org, custom_properties: [...org.custom_properties, TEAM_PROPERTY] }
            : org,
        ),
      };
    },
  }),
  // `POST /orgs/{org}/repos` takes `custom_properties` (the spec); a required property that
  // requires explicit values refuses a creation without one (integrations/terraform-provider-github#3304).
  created: (_world, repo, body) => creationValues(repo, body?.custom_properties),
  routes: propertyRoutes,
  permissions: propertyPermissions,
});
