/** How an organization's teams are written: `teams: {<slug>: {…} | null}` in an organizations entry. */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type RuleProblem } from "../../config/spec.js";

const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, {
  error: "expected a GitHub login such as octocat",
});

const slug = z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, {
  error:
    "expected a team slug such as release-managers (lower case, as GitHub derives it from the name)",
});

const members = closed({
  mode: z
    .enum(["additive", "authoritative"])
    .optional()
    .describe(
      "additive (default): members not listed are left alone; authoritative: direct members not listed are removed.",
    ),
  users: z
    .record(
      login,
      orNull(
        z
          .enum(["member", "maintainer"])
          .describe("member or maintainer; null removes the user from the team."),
      ),
    )
    .optional()
    .describe("Members by login (case-insensitive) and their role in the team."),
});

const teamSettings = closed({
  name: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The team's name (default: its slug); GitHub derives the slug from it, so it must make the team's key.",
    ),
  description: z.string().optional().describe("What the team is for."),
  privacy: z
    .enum(["secret", "closed"])
    .optional()
    .describe(
      "closed: visible to every member of the organization; secret: to its members and owners only. Nested teams are closed.",
    ),
  parent: orNull(slug)
    .optional()
    .describe("The slug of the parent team (created first when new); null: a top-level team."),
  notification_setting: z
    .enum(["notifications_enabled", "notifications_disabled"])
    .optional()
    .describe("Whether members are notified when the team is @mentioned."),
  members: members.optional().describe("The team's members and their roles."),
});

const teamsSchema = z
  .record(slug, orNull(teamSettings.describe("A team; null deletes it.")))
  .describe(
    "The organization's teams by slug; a team not written is left alone, null deletes one (with its child teams).",
  );

export type MemberSettings = z.output<typeof members>;
export type TeamSettings = z.output<typeof teamSettings>;
export type Teams = z.output<typeof teamsSchema>;

/** The parent chain of a team among the written teams, stopping at a repeat (a cycle). */
function chain(teams: Teams, start: string): string[] {
  const seen: string[] = [start];
  for (let at = teams[start]?.parent; typeof at === "string"; at = teams[at]?.parent) {
    if (seen.includes(at)) return [...seen, at];
    seen.push(at);
  }
  return seen;
}

/**
 * Teams that cannot all be as written: a parent the same file deletes, nesting in a cycle, a
 * secret team with a parent or child ("When a team is nested, the `privacy` for parent teams cannot
 * be `secret`", GitHub's "Update a team"), and a login twice in one team's members.
 */
function teamRules(teams: Teams): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const [key, team] of Object.entries(teams)) {
    if (team === null) continue;
    const parent = team.parent;
    if (typeof parent === "string") {
      if (teams[parent] === null) {
        problems.push({
          path: [key, "parent"],
          message: `${parent} is deleted here (null): a team cannot be nested under it`,
          sameAs: [parent],
        });
      }
      const path = chain(teams, key);
      if (path.indexOf(path.at(-1)!) !== path.length - 1) {
        problems.push({
          path: [key, "parent"],
          message: `the parents make a cycle: ${path.join(" → ")}`,
        });
      }
      if (team.privacy === "secret") {
        problems.push({
          path: [key, "privacy"],
          message: "a team with a parent is closed, not secret",
        });
      }
    }
    const children = Object.entries(teams).filter(([, other]) => other?.parent === key);
    if (team.privacy === "secret" && children.length > 0) {
      problems.push({
        path: [key, "privacy"],
        message: `a parent team is closed, not secret (${children.map(([child]) => child).join(", ")} ${children.length === 1 ? "is" : "are"} nested under it)`,
      });
    }
    const logins = new Map<string, string>();
    for (const login of Object.keys(team.members?.users ?? {})) {
      const earlier = logins.get(login.toLowerCase());
      if (earlier !== undefined) {
        problems.push({
          path: [key, "members", "users", login],
          message: `${earlier} and ${login} name one user (logins compare case-insensitively)`,
          sameAs: [key, "members", "users", earlier],
        });
      }
      logins.set(login.toLowerCase(), login);
    }
  }
  return problems;
}

export const teamsSetting = defineSetting({
  key: "teams",
  schema: teamsSchema,
  rules: teamRules,
  defines: (teams) =>
    Object.keys(teams).map((slug) => ({
      id: `team ${slug}`,
      path: [slug],
      what: `the team ${slug}`,
    })),
  print: (teams) => Object.keys(teams).map((slug) => ({ kind: "team", name: slug, path: [slug] })),
});
