import * as z from "zod";
import { gitlabArea } from "../area.js";
import {
  groupRuleOf,
  NULLABLE_FLAGS,
  newRule,
  PLAIN_FLAGS,
  projectRuleOf,
  REGEX_FIELDS,
} from "./records.js";
import { pushRuleRoutes } from "./routes.js";

/**
 * Push rules of projects and groups (the `push_rules` kind; GitLab Premium). A seed gives a
 * project or group its rule as `push_rule: {<field>: …}` (GitLab's defaults for the others).
 */
/** One optional seed field per name, typed by the names. */
function fields<K extends string, T extends z.ZodType>(names: readonly K[], schema: T) {
  return Object.fromEntries(names.map((name) => [name, schema.optional()])) as Record<
    K,
    z.ZodOptional<T>
  >;
}

const pushRuleSeed = z
  .strictObject({
    ...fields(PLAIN_FLAGS, z.boolean()),
    ...fields(NULLABLE_FLAGS, z.boolean().nullable()),
    ...fields(REGEX_FIELDS, z.string().nullable()),
    max_file_size: z.number().int().min(0).optional(),
  })
  .optional();

const SEEDED_AT = "2026-01-02T09:00:00.000Z";

export const pushRules = gitlabArea({
  name: "push-rules",
  seed: {
    projects: { push_rule: pushRuleSeed },
    groups: { push_rule: pushRuleSeed },
  },
  demo: {
    projects: [
      {
        id: 1,
        push_rule: {
          deny_delete_tag: true,
          prevent_secrets: true,
          commit_message_regex: "^(feat|fix|docs|chore)(\\(.+\\))?: ",
          max_file_size: 100,
        },
      },
    ],
    groups: [{ path: "acme", push_rule: { member_check: true, reject_unsigned_commits: false } }],
  },
  build(world, seed) {
    seed.projects.forEach((entry, index) => {
      const project = world.seeded.projects[index];
      if (project !== undefined && entry.push_rule !== undefined)
        projectRuleOf(project).rule = newRule(world, SEEDED_AT, entry.push_rule);
    });
    seed.groups.forEach((entry, index) => {
      const group = world.seeded.groups[index];
      if (group !== undefined && entry.push_rule !== undefined)
        groupRuleOf(group).rule = newRule(world, SEEDED_AT, entry.push_rule);
    });
  },
  routes: pushRuleRoutes,
});
