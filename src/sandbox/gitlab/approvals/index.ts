import * as z from "zod";
import { check, login } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { protectBranch } from "./protected-branches.js";
import {
  APPROVALS_REQUIRED_MAX,
  approvalRuleIds,
  approvalRulesOf,
  approvalSettingsOf,
  SETTING_FIELDS,
  type SettingField,
} from "./records.js";
import { approvalRoutes } from "./routes.js";

/**
 * Projects' merge-request approvals (the `merge_request_approvals` kind; GitLab Premium). A seed
 * gives a project `approvals: {settings, protected_branches, rules}`: its settings, the names of
 * its protected branches that rules may be scoped to (the minimal look-up of
 * protected-branches.ts), and its rules with users by username, groups by full path and branches
 * by name, each checked as GitLab's POST would check it.
 */
const settingsSeed = z
  .strictObject(
    Object.fromEntries(SETTING_FIELDS.map((field) => [field, z.boolean().optional()])) as Record<
      SettingField,
      z.ZodOptional<z.ZodBoolean>
    >,
  )
  .optional();

const ruleSeed = z.strictObject({
  name: z.string().min(1),
  rule_type: z.enum(["regular", "any_approver"]).default("regular"),
  approvals_required: z.number().int().min(0).max(APPROVALS_REQUIRED_MAX),
  users: z.array(login).default([]),
  groups: z.array(z.string().min(1)).default([]),
  protected_branches: z.array(z.string().min(1)).default([]),
  applies_to_all_protected_branches: z.boolean().default(false),
});

export const approvals = gitlabArea({
  name: "approvals",
  seed: {
    projects: {
      approvals: z
        .strictObject({
          settings: settingsSeed,
          protected_branches: z.array(z.string().min(1)).default([]),
          rules: z.array(ruleSeed).default([]),
        })
        .optional(),
    },
  },
  demo: {
    projects: [
      {
        id: 1,
        approvals: {
          settings: {
            reset_approvals_on_push: false,
            selective_code_owner_removals: true,
            disable_overriding_approvers_per_merge_request: true,
          },
          protected_branches: ["main", "release/*"],
          rules: [
            { name: "All Members", rule_type: "any_approver", approvals_required: 1 },
            {
              name: "Security",
              approvals_required: 1,
              users: ["octo-dev"],
              groups: ["acme/platform"],
              protected_branches: ["main"],
            },
          ],
        },
      },
    ],
  },
  build(world, seed) {
    seed.projects.forEach((entry, index) => {
      const project = world.seeded.projects[index];
      const given = entry.approvals;
      if (project === undefined || given === undefined) return;
      const at = ["projects", index, "approvals"];
      Object.assign(approvalSettingsOf(project), given.settings ?? {});
      const settings = approvalSettingsOf(project);
      check(
        !(settings.selective_code_owner_removals && settings.reset_approvals_on_push),
        [...at, "settings"],
        "selective_code_owner_removals needs reset_approvals_on_push: false",
      );
      const branches = new Map(
        given.protected_branches.map((name) => [name, protectBranch(world, project, name)]),
      );
      const members = new Set(world.effectiveMembers(project).map((member) => member.user.id));
      given.rules.forEach((rule, ruleIndex) => {
        const here = [...at, "rules", ruleIndex];
        const rules = approvalRulesOf(project);
        check(
          !rules.some((other) => other.name === rule.name),
          [...here, "name"],
          `rule name '${rule.name}' is used twice`,
        );
        check(
          rule.rule_type !== "any_approver" ||
            !rules.some((other) => other.rule_type === "any_approver"),
          [...here, "rule_type"],
          "a project has at most one any_approver rule",
        );
        const userIds = rule.users.map((name, userIndex) => {
          const user = world.user(name);
          check(
            user !== undefined && members.has(user.id),
            [...here, "users", userIndex],
            `'${name}' is no member of the project`,
          );
          return user.id;
        });
        const groupIds = rule.groups.map((path, groupIndex) => {
          const found = world.groupsByPath.get(path.toLowerCase());
          check(found !== undefined, [...here, "groups", groupIndex], `unknown group '${path}'`);
          return found.id;
        });
        const protectedBranchIds = rule.applies_to_all_protected_branches
          ? []
          : rule.protected_branches.map((name, branchIndex) => {
              const branch = branches.get(name);
              check(
                branch !== undefined,
                [...here, "protected_branches", branchIndex],
                `'${name}' is not among the project's protected_branches`,
              );
              return branch.id;
            });
        rules.push({
          id: approvalRuleIds(world).next++,
          name: rule.name,
          rule_type: rule.rule_type,
          report_type: null,
          approvals_required: rule.approvals_required,
          userIds,
          groupIds,
          protectedBranchIds,
          applies_to_all_protected_branches: rule.applies_to_all_protected_branches,
        });
      });
    });
  },
  routes: approvalRoutes,
});
