import { defineKind } from "../kind.js";
import { planGroupPushRule, planProjectPushRule } from "./plan.js";
import { pushRulesSetting } from "./settings.js";
import { verifyPushRule } from "./verify.js";
import { exportGroupPushRule, exportProjectPushRule } from "./export.js";

/**
 * GitLab push rules (issue #36, item 7; Premium): one kind with a project part and a group part,
 * both `push_rules:`, since GitLab's two endpoints take the same fields and differ only in their
 * path and in how they answer "no rule" (a project's 200 `null`, a group's 404).
 */
export const pushRulesKind = defineKind({
  name: "push_rules",
  project: {
    setting: pushRulesSetting,
    plan: ({ reader, at, value }) => planProjectPushRule({ reader, project: at, value }),
    export: exportProjectPushRule,
  },
  group: {
    setting: pushRulesSetting,
    plan: ({ reader, at, value }) => planGroupPushRule({ reader, group: at, value }),
    export: exportGroupPushRule,
  },
  verify: verifyPushRule,
});
