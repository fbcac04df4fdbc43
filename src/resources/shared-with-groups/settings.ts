/**
 * How a GitLab project's or group's shares are written: `shared_with_groups: {mode, groups:
 * {<group full path>: …}}` in a `projects:` entry (and `project_defaults`, `project_profiles`) or a
 * `groups:` entry. A share is the level the invited group's members get (by name or number) or
 * `{group_access, expires_at}`; null removes it. The key is GitLab's own name for the list in a
 * project's and a group's answer.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import type { PrintBlock, RuleProblem } from "../../config/spec.js";
import { defineSetting } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";
import { expiryDate, levelField } from "../gitlab-access-levels.js";

const level = levelField("share");

const share = orNull(
  z.union([
    level,
    closed({
      group_access: level,
      expires_at: orNull(expiryDate)
        .optional()
        .describe("When the share ends (YEAR-MONTH-DAY); null: never. Not written: left as it is."),
    }).describe("The level the group's members get, and when the share ends."),
  ]),
).describe(
  "The level the group's members get (by name or number), or {group_access, expires_at}; null removes the share.",
);

const groupPathKey = z
  .string()
  .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_.][A-Za-z0-9_.-]*)*$/, {
    error: "expected a group's full path such as acme/platform",
  });

function sharesSchema(where: string) {
  return closed({
    mode: modeField(`groups the ${where} is shared with`),
    groups: z
      .record(groupPathKey, share)
      .optional()
      .describe(
        "The groups it is shared with, by full path (case-insensitive). A change of level or expiry deletes the share and makes it again: GitLab has no update of a share.",
      ),
  }).describe(
    `The groups the ${where} is shared with (GitLab's shared_with_groups; POST and DELETE /${where}s/:id/share).`,
  );
}

export const projectShares = sharesSchema("project");
export const groupShares = sharesSchema("group");

export type Shares = z.output<typeof projectShares>;
export type WrittenShare = NonNullable<NonNullable<Shares["groups"]>[string]>;

/** A group written twice in other cases is one group: GitLab compares paths ignoring case. */
function rules(value: Shares): RuleProblem[] {
  const seen = new Map<string, string>();
  const problems: RuleProblem[] = [];
  for (const path of Object.keys(value.groups ?? {})) {
    const earlier = seen.get(path.toLowerCase());
    if (earlier !== undefined) {
      problems.push({
        path: ["groups", path],
        message: `${earlier} and ${path} name one group (GitLab compares paths ignoring case)`,
        sameAs: ["groups", earlier],
      });
    }
    seen.set(path.toLowerCase(), path);
  }
  return problems;
}

function print(value: Shares): PrintBlock[] {
  return [
    modeBlock("shared_with_groups", value.mode),
    ...Object.keys(value.groups ?? {}).map((path): PrintBlock => ({
      kind: "shared_with_groups",
      name: path.toLowerCase(),
      path: ["groups", path],
    })),
  ];
}

const defines = () => [{ id: "shared_with_groups", path: [], what: "the shares with groups" }];

export const projectSharesSetting = defineSetting({
  key: "shared_with_groups",
  schema: projectShares,
  rules,
  defines,
  print,
});

export const groupSharesSetting = defineSetting({
  key: "shared_with_groups",
  schema: groupShares,
  rules,
  defines,
  print,
});
