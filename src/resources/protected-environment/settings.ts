/**
 * How protected environments are written, for a project (`projects[].protected_environments`) and
 * a group (`groups[].protected_environments`, keyed by deployment tier):
 * `protected_environments: {mode, items: {<name>: {deploy_access_levels, approval_rules,
 * required_approval_count}}}`. Who may deploy is a list of roles, users and groups, named as the
 * protections name them (src/resources/protected-ref-access.ts); a group entry may count members
 * of its subgroups too (`group_inheritance_type: 1`). `approval_rules` and
 * `required_approval_count` are managed when written.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";
import { writtenKey } from "../protected-ref-access.js";

/**
 * The roles a protected environment takes: "30 => Developer access, 40 => Maintainer access,
 * 60 => Admin access" (docs, "Protected environments API", "Valid access levels").
 */
export const ENVIRONMENT_LEVELS = { developer: 30, maintainer: 40, admin: 60 } as const;

/**
 * The deployment tiers a group's protected environments are named by (docs, "Group-level
 * protected environments": "the name of a protected environment is a deployment tier").
 */
export const TIERS = ["production", "staging", "testing", "development", "other"] as const;

const names = Object.keys(ENVIRONMENT_LEVELS) as [string, ...string[]];
const numbers = Object.values(ENVIRONMENT_LEVELS);

const role = z.union([
  z.enum(names),
  z
    .number()
    .int()
    .refine((level) => (numbers as number[]).includes(level), {
      error: `a level is one of ${numbers.join(", ")} (${names.join(", ")})`,
    }),
]);

const inheritance = z
  .union([z.literal(0), z.literal(1)])
  .optional()
  .describe(
    "GitLab's group_inheritance_type: 0 (default) direct members of the group only, 1 members of its subgroups too.",
  );

const deployEntry = z.union([
  role,
  closed({ user: z.string().min(1).describe("A user, by username.") }),
  closed({
    group: z.string().min(1).describe("A group, by full path."),
    group_inheritance_type: inheritance,
  }),
]);

const approvals = z
  .int()
  .min(1)
  .optional()
  .describe("Approvals this rule requires (GitLab's default 1).");

const approvalRule = z.union([
  closed({
    access_level: role.describe("A role: developer, maintainer, admin (or 30, 40, 60)."),
    required_approvals: approvals,
  }),
  closed({
    user: z.string().min(1).describe("A user, by username."),
    required_approvals: approvals,
  }),
  closed({
    group: z.string().min(1).describe("A group, by full path."),
    required_approvals: approvals,
    group_inheritance_type: inheritance,
  }),
]);

export type DeployEntry = z.output<typeof deployEntry>;
export type ApprovalRule = z.output<typeof approvalRule>;

/** A deploy entry or rule as compared before names are resolved (`maintainer`, `user:octo`). */
export function entryKey(entry: DeployEntry | ApprovalRule): string {
  if (typeof entry === "string" || typeof entry === "number")
    return writtenKey(ENVIRONMENT_LEVELS, entry);
  if ("access_level" in entry) return writtenKey(ENVIRONMENT_LEVELS, entry.access_level);
  if ("user" in entry) return writtenKey(ENVIRONMENT_LEVELS, { user: entry.user });
  return writtenKey(ENVIRONMENT_LEVELS, { group: entry.group });
}

const unique = <T extends DeployEntry | ApprovalRule>(list: readonly T[]) =>
  new Set(list.map(entryKey)).size === list.length;

const environment = closed({
  deploy_access_levels: z
    .array(deployEntry)
    .min(1)
    .refine(unique, { error: "an entry is listed twice" })
    .describe(
      "Who may deploy: roles (developer, maintainer, admin, or 30, 40, 60), {user: username}, {group: full/path, group_inheritance_type}.",
    ),
  approval_rules: z
    .array(approvalRule)
    .refine(unique, { error: "a rule names one role, user or group twice" })
    .optional()
    .describe(
      "Who must approve a deployment: {access_level}, {user} or {group}, each with required_approvals; [] for none; left out, not managed.",
    ),
  required_approval_count: z
    .int()
    .min(0)
    .max(5)
    .optional()
    .describe(
      "GitLab's older unified approval count for the environment (0–5); left out, not managed.",
    ),
});

function schemaFor(names: "any" | "tiers") {
  const key =
    names === "tiers"
      ? z
          .enum(TIERS)
          .describe("A deployment tier: production, staging, testing, development, other.")
      : z.string().min(1).max(255).describe("The environment's name.");
  return closed({
    mode: modeField("protected environments"),
    items: z
      .partialRecord(
        key,
        orNull(environment).describe(
          "The environment's protection, managed whole but for what is left out; null: the environment is not protected.",
        ),
      )
      .optional()
      .describe(
        names === "tiers"
          ? "Protected environments by deployment tier."
          : "Protected environments by name.",
      ),
  });
}

const projectSchema = schemaFor("any");
const groupSchema = schemaFor("tiers");

export type EnvironmentSettings = z.output<typeof environment>;
export type ProtectedEnvironments = z.output<typeof projectSchema>;

function printEnvironments(value: ProtectedEnvironments): PrintBlock[] {
  return [
    modeBlock("protected_environment", value.mode),
    ...Object.keys(value.items ?? {}).map((name): PrintBlock => ({
      kind: "protected_environment",
      name,
      path: ["items", name],
    })),
  ];
}

const DESCRIPTION =
  "Protected environments (GitLab Premium): mode (additive or authoritative) and items by name, each deploy_access_levels, approval_rules and required_approval_count.";

export const projectEnvironmentsSetting = defineSetting({
  key: "protected_environments",
  schema: projectSchema.describe(DESCRIPTION),
  defines: () => [{ id: "protected_environments", path: [], what: "the protected environments" }],
  print: printEnvironments,
});

export const groupEnvironmentsSetting = defineSetting({
  key: "protected_environments",
  schema: groupSchema.describe(`${DESCRIPTION} A group's are named by deployment tier.`),
  defines: () => [{ id: "protected_environments", path: [], what: "the protected environments" }],
  print: (value) => printEnvironments(value as ProtectedEnvironments),
});
