/**
 * How a GitLab project's or group's members are written: `members: {mode, users: {<username>: …}}`
 * in a `projects:` entry (and `project_defaults`, `project_profiles`) or a `groups:` entry. A member
 * is its access level (by name or number) or `{access_level, expires_at, member_role}`; null
 * removes a direct member. Usernames compare ignoring case, as GitLab finds users
 * (`User.find_by_username`).
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import type { PrintBlock, RuleProblem } from "../../config/spec.js";
import { defineSetting } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";
import {
  expiryDate,
  type Granted,
  LEVELS,
  levelField,
  levelNumber,
  username,
} from "../gitlab-access-levels.js";

/** A custom role by its name or its id (GitLab's `member_role_id`). */
const memberRole = z.union([z.string().min(1).max(255), z.number().int().positive()], {
  error: "expected a custom role's name or id",
});

function memberSchema(granted: Granted) {
  const level = levelField(granted);
  return orNull(
    z.union([
      level,
      closed({
        access_level: level,
        expires_at: orNull(expiryDate)
          .optional()
          .describe(
            "When the membership ends (YEAR-MONTH-DAY); null: never. Not written: left as GitLab has it.",
          ),
        member_role: orNull(memberRole)
          .optional()
          .describe(
            "The custom role (Ultimate) by name or id, whose base access level is access_level; null: none. Not written: left as GitLab has it.",
          ),
      }).describe("The access level, when the membership ends and its custom role."),
    ]),
  ).describe(
    "The member's access level (by name or number), or {access_level, expires_at, member_role}; null removes a direct member.",
  );
}

function membersSchema(granted: Granted, where: string) {
  return closed({
    mode: modeField(`direct members of the ${where}`),
    users: z
      .record(username, memberSchema(granted))
      .optional()
      .describe(
        `Members by username (case-insensitive). A user who already inherits the level (or a higher one) from a group above the ${where} is left as inherited; one who inherits a lower level gets a direct membership.`,
      ),
  }).describe(
    `The ${where}'s members (GitLab's /${where}s/:id/members). Inherited members are never written or removed here.`,
  );
}

// A project's members are written with the group's levels, so a rule can say why Minimal Access is
// refused there (ProjectMember's levels leave it out) rather than a bare list of values.
export const projectMembers = membersSchema("group member", "project");
export const groupMembers = membersSchema("group member", "group");

export type Members = z.output<typeof groupMembers>;
export type WrittenMember = NonNullable<NonNullable<Members["users"]>[string]>;

/** A username written twice in other cases names one user: GitLab compares them ignoring case. */
function rules(value: Members): RuleProblem[] {
  const seen = new Map<string, string>();
  const problems: RuleProblem[] = [];
  for (const name of Object.keys(value.users ?? {})) {
    const earlier = seen.get(name.toLowerCase());
    if (earlier !== undefined) {
      problems.push({
        path: ["users", name],
        message: `${earlier} and ${name} name one user (GitLab compares usernames ignoring case)`,
        sameAs: ["users", earlier],
      });
    }
    seen.set(name.toLowerCase(), name);
  }
  return problems;
}

/** Minimal Access is a group membership only: GitLab refuses it for a project's member. */
function projectRules(value: Members): RuleProblem[] {
  const problems = rules(value);
  for (const [name, member] of Object.entries(value.users ?? {})) {
    if (member === null) continue;
    const level = typeof member === "object" ? member.access_level : member;
    if (levelNumber(level) !== LEVELS.minimal_access) continue;
    problems.push({
      path: typeof member === "object" ? ["users", name, "access_level"] : ["users", name],
      message:
        "minimal_access (5) is a group membership only: GitLab refuses it for a project's member (guest to owner)",
    });
  }
  return problems;
}

function print(value: Members): PrintBlock[] {
  return [
    modeBlock("members", value.mode),
    ...Object.keys(value.users ?? {}).map((name): PrintBlock => ({
      kind: "members",
      name: name.toLowerCase(),
      path: ["users", name],
    })),
  ];
}

const defines = () => [{ id: "members", path: [], what: "the member list" }];

export const projectMembersSetting = defineSetting({
  key: "members",
  schema: projectMembers,
  rules: projectRules,
  defines,
  print,
});

export const groupMembersSetting = defineSetting({
  key: "members",
  schema: groupMembers,
  rules,
  defines,
  print,
});
