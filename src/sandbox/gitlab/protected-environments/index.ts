import * as z from "zod";
import { check, type SeedPath } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";
import {
  type DeployLevel,
  entryIds,
  environmentsOf,
  type Grantee,
  type ProtectedEnvironment,
  protectedEnvironmentsOf,
} from "./records.js";
import { protectedEnvironmentRoutes } from "./routes.js";

/**
 * Protected environments of projects and groups (the `protected_environment` kind), and a
 * project's environments by name. A seed's entry is a role level (30, 40, 60), `{user}` or
 * `{group}` (a full path, with `group_inheritance_type`); a rule adds `required_approvals`.
 */

const principal = z.union([
  z.number().int(),
  z.strictObject({ user: z.string() }),
  z.strictObject({ group: z.string(), group_inheritance_type: z.number().int().default(0) }),
]);
const rule = z.strictObject({
  who: principal,
  required_approvals: z.number().int().positive().default(1),
});
const environmentSeed = z.strictObject({
  name: z.string().min(1),
  deploy: z.array(principal).min(1),
  approval_rules: z.array(rule).default([]),
  required_approval_count: z.number().int().min(0).default(0),
});
const protections = z.array(environmentSeed).default([]);

function principalOf(
  world: GitlabWorld,
  written: z.output<typeof principal>,
  at: SeedPath,
): { principal: Grantee; groupInheritanceType: number } {
  if (typeof written === "number")
    return { principal: { kind: "role", level: written }, groupInheritanceType: 0 };
  if ("user" in written) {
    const user = world.user(written.user);
    check(user !== undefined, at, `unknown user '${written.user}'`);
    return { principal: { kind: "user", user }, groupInheritanceType: 0 };
  }
  const group = world.group(written.group);
  check(group !== undefined, at, `unknown group '${written.group}'`);
  return {
    principal: { kind: "group", group },
    groupInheritanceType: written.group_inheritance_type,
  };
}

function built(
  world: GitlabWorld,
  written: z.output<typeof environmentSeed>,
  at: SeedPath,
): ProtectedEnvironment {
  const ids = entryIds(world);
  const level = (who: z.output<typeof principal>, path: SeedPath): DeployLevel => ({
    id: ids.next++,
    ...principalOf(world, who, path),
  });
  return {
    name: written.name,
    deployAccessLevels: written.deploy.map((who, index) => level(who, [...at, "deploy", index])),
    approvalRules: written.approval_rules.map((one, index) => ({
      ...level(one.who, [...at, "approval_rules", index, "who"]),
      requiredApprovals: one.required_approvals,
    })),
    requiredApprovalCount: written.required_approval_count,
  };
}

function addAll(
  world: GitlabWorld,
  owner: Project | Group,
  entries: z.output<typeof protections>,
  at: SeedPath,
): void {
  entries.forEach((written, index) => {
    const path: SeedPath = [...at, "protected_environments", index];
    check(
      !protectedEnvironmentsOf(owner).has(written.name),
      [...path, "name"],
      `environment '${written.name}' is protected twice`,
    );
    protectedEnvironmentsOf(owner).set(written.name, built(world, written, path));
  });
}

export const protectedEnvironments = gitlabArea({
  name: "protected-environments",
  seed: {
    projects: {
      /** The project's environments, by name (GitLab makes one on a job's first deployment). */
      environments: z.array(z.string().min(1)).default([]),
      protected_environments: protections,
    },
    groups: { protected_environments: protections },
  },
  demo: {
    projects: [
      {
        id: 1,
        environments: ["production", "staging", "review/feature-x"],
        protected_environments: [
          {
            name: "production",
            deploy: [40, { user: "octo-dev" }],
            approval_rules: [{ who: 40, required_approvals: 1 }],
          },
        ],
      },
    ],
  },
  build(world, seed) {
    seed.groups.forEach((entry, index) => {
      const group = world.seeded.groups[index];
      if (group !== undefined)
        addAll(world, group, entry.protected_environments, ["groups", index]);
    });
    seed.projects.forEach((entry, index) => {
      const project = world.seeded.projects[index];
      if (project === undefined) return;
      for (const name of entry.environments) environmentsOf(project).add(name);
      addAll(world, project, entry.protected_environments, ["projects", index]);
    });
  },
  routes: protectedEnvironmentRoutes,
});
