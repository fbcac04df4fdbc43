import * as z from "zod";
import { check } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { instanceProblemsOf, problemsOf } from "./model.js";
import { type CiVariable, variablesOf } from "./records.js";
import { variableRoutes } from "./routes.js";

/**
 * CI/CD variables of projects, groups and the instance (the `gitlab_variable` kind). A seed's
 * variable is checked as GitLab checks the create that would make it (model.ts); `hidden` is
 * GitLab's `masked_and_hidden`. The instance's (`instance_variables`, a list of the seed's own)
 * have neither scope nor `hidden`, and only an administrator (a user with `site_admin: true`)
 * reads them; the demo world has none, and no administrator. The demo world gives them to group partners, whose export the other
 * kinds' tests do not plan (every value comes from the environment, so a configuration that
 * names variables needs them set).
 */

const variableSeed = z.strictObject({
  key: z.string().min(1),
  value: z.string(),
  variable_type: z.enum(["env_var", "file"]).default("env_var"),
  protected: z.boolean().default(false),
  masked: z.boolean().default(false),
  hidden: z.boolean().default(false),
  raw: z.boolean().default(false),
  environment_scope: z.string().default("*"),
  description: z.string().nullable().default(null),
});
const variablesSeed = z.array(variableSeed).default([]);
const instanceVariableSeed = variableSeed.omit({ environment_scope: true, hidden: true }).shape;

export const variables = gitlabArea({
  name: "variables",
  seed: {
    projects: { variables: variablesSeed },
    groups: { variables: variablesSeed },
    instance_variables: instanceVariableSeed,
  },
  demo: {
    groups: [
      {
        path: "partners",
        variables: [
          { key: "NPM_TOKEN", value: "npm_partners_all_0001", masked: true },
          {
            key: "NPM_TOKEN",
            value: "npm_partners_prod_0002",
            masked: true,
            protected: true,
            environment_scope: "production",
          },
          { key: "SIGNING_KEY", value: "sig_partners_hidden_0003", masked: true, hidden: true },
          {
            key: "REGISTRY_URL",
            value: "https://registry.partners.sandbox.test",
            description: "Where partner packages are published",
          },
        ],
      },
    ],
  },
  build(world, seed) {
    const add = (
      list: CiVariable[],
      entries: z.output<typeof variablesSeed>,
      at: ["groups" | "projects", number],
    ) => {
      entries.forEach((entry, index) => {
        const variable: CiVariable = { ...entry, masked: entry.masked || entry.hidden };
        const problems = problemsOf(variable, list);
        check(
          Object.keys(problems).length === 0,
          [...at, "variables", index],
          `GitLab refuses this variable: ${JSON.stringify(problems)}`,
        );
        list.push(variable);
      });
    };
    seed.groups.forEach((entry, index) => {
      const group = world.seeded.groups[index];
      if (group !== undefined) add(variablesOf(group), entry.variables, ["groups", index]);
    });
    const instance = variablesOf(world);
    seed.instance_variables.forEach((entry, index) => {
      const variable: CiVariable = { ...entry, hidden: false, environment_scope: "*" };
      const problems = instanceProblemsOf(variable, instance);
      check(
        Object.keys(problems).length === 0,
        ["instance_variables", index],
        `GitLab refuses this variable: ${JSON.stringify(problems)}`,
      );
      instance.push(variable);
    });
    seed.projects.forEach((entry, index) => {
      const project = world.seeded.projects[index];
      check(
        project !== undefined || entry.variables.length === 0,
        ["projects", index],
        "no project",
      );
      if (project !== undefined) add(variablesOf(project), entry.variables, ["projects", index]);
    });
  },
  /** The `full` profile: one plain variable of every environment. */
  generateProjects:
    (_seed, { profile }) =>
    (entry) => {
      if (profile === "full") entry.variables = [{ key: "DEPLOY_ENV", value: "production" }];
    },
  routes: variableRoutes,
});
