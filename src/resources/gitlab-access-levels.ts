/**
 * GitLab's access levels as a configuration writes them, for the GitLab kinds that grant a role
 * (members, shares): by name or by number, each endpoint taking only the levels GitLab takes there.
 * Source: GitLab's "Group and project members API", "Roles" (doc/api/members.md: "0 no access, 5
 * minimal access, 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50 owner, 60
 * admin"), `Gitlab::Access` (lib/gitlab/access.rb). docs/service-decisions.md says which endpoint
 * takes which.
 */
import * as z from "zod";

export const LEVELS = {
  minimal_access: 5,
  guest: 10,
  planner: 15,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
} as const;

export type LevelName = keyof typeof LEVELS;

/**
 * Where a level is granted. A project's membership and a share take guest to owner; Minimal
 * Access (5) is a group membership only (docs, "Roles and permissions", "Users with Minimal
 * Access": "Owners can add members with a Minimal Access role to a parent group"; ProjectMember's
 * access levels leave it out), and no access (0) and admin (60) are no membership at all.
 */
export type Granted = "project member" | "group member" | "share";

function namesFor(granted: Granted): LevelName[] {
  return (Object.keys(LEVELS) as LevelName[]).filter(
    (name) => granted === "group member" || name !== "minimal_access",
  );
}

/** The schema of a level written by name or number, for where it is granted. */
export function levelField(granted: Granted) {
  const names = namesFor(granted);
  const numbers = names.map((name) => LEVELS[name]);
  const listed = names.map((name) => `${name} (${LEVELS[name]})`).join(", ");
  const why =
    granted === "group member"
      ? ""
      : "; minimal_access (5) is a group membership only, GitLab refuses it here";
  return z
    .union(
      [z.enum(names as [LevelName, ...LevelName[]]), z.literal(numbers as [number, ...number[]])],
      { error: `expected an access level: ${listed}${why}` },
    )
    .describe(`The access level, by name or number: ${listed}.`);
}

/** A level written by name or number, as GitLab's number. */
export function levelNumber(level: LevelName | number): number {
  return typeof level === "number" ? level : LEVELS[level];
}

/** The name of a level GitLab answers (`30` → `developer`); the number itself for another. */
export function levelName(level: number): LevelName | number {
  const found = (Object.keys(LEVELS) as LevelName[]).find((name) => LEVELS[name] === level);
  return found ?? level;
}

/** A GitLab username (User::USERNAME_REGEX): letters, digits, `_`, `.` and `-`, not leading `-`. */
export const username = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/, {
    error: "expected a GitLab username such as octo-dev",
  });

/** A date as GitLab's members and shares take `expires_at`: `YEAR-MONTH-DAY`. */
export const expiryDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "expected a date YEAR-MONTH-DAY, such as 2027-01-31" })
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), {
    error: "expected a date that exists, such as 2027-01-31",
  });
