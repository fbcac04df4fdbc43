/** How access is written in the configuration: `access: {mode, users, teams}`. */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type EntryFacts, type RuleProblem } from "../../config/spec.js";

const role = z
  .string()
  .min(1)
  .describe(
    "read, triage, write, maintain or admin (pull and push are read and write), or the name of one of the organization's custom repository roles; null removes the grant.",
  );

/** A GitHub login: letters, digits and single hyphens, at most 39 characters. */
const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, {
  error: "expected a GitHub login such as octocat",
});

const accessSchema = closed({
  mode: z
    .enum(["additive", "authoritative"])
    .optional()
    .describe(
      "additive (default): grants not listed are left alone; authoritative: the direct collaborators and invitations (when users is written) and team grants (when teams is written) not listed are removed; owners, access through teams and security manager teams never are.",
    ),
  users: z
    .record(login, orNull(role))
    .optional()
    .describe(
      "Direct collaborators by login (case-insensitive) and their role; a pending invitation counts as access granted.",
    ),
  teams: z
    .record(z.string().min(1), orNull(role))
    .optional()
    .describe("Teams of the organization by slug, and the role each has on the repository."),
}).describe("Who has access to the repository: collaborators and teams, each with a role.");

export type AccessSettings = z.output<typeof accessSchema>;

/** Names two layers wrote in different case: logins and slugs compare case-insensitively. */
function caseTwins(key: "users" | "teams", names: readonly string[], what: string): RuleProblem[] {
  const first = new Map<string, string>();
  return names.flatMap((name): RuleProblem[] => {
    const earlier = first.get(name.toLowerCase());
    if (earlier === undefined) {
      first.set(name.toLowerCase(), name);
      return [];
    }
    return [
      {
        path: [key, name],
        message: `${earlier} and ${name} name one ${what} (${what}s compare case-insensitively)`,
        sameAs: [key, earlier],
      },
    ];
  });
}

/** Rules over what defaults, profiles and an entry make together. */
function accessRules(value: AccessSettings, entry: EntryFacts): RuleProblem[] {
  const { users = {}, teams = {} } = value;
  const problems = [
    ...caseTwins("users", Object.keys(users), "login"),
    ...caseTwins("teams", Object.keys(teams), "team slug"),
  ];
  if (entry.ownerType === "user" && Object.keys(teams).length > 0) {
    problems.push({
      path: ["teams"],
      message: "teams belong to organizations and owner_type is user",
    });
  }
  return problems;
}

export const accessSetting = defineSetting({
  key: "access",
  schema: accessSchema,
  rules: accessRules,
  // Defined user by user and team by team, as layers merge them.
  defines: ({ mode, users = {}, teams = {} }) => [
    ...(mode === undefined ? [] : [{ id: "access mode", path: ["mode"], what: "the access mode" }]),
    ...Object.keys(users).map((login) => ({
      id: `access user ${login.toLowerCase()}`,
      path: ["users", login],
      what: `the access of user ${login}`,
    })),
    ...Object.keys(teams).map((slug) => ({
      id: `access team ${slug.toLowerCase()}`,
      path: ["teams", slug],
      what: `the access of team ${slug}`,
    })),
  ],
  print: () => [{ kind: "access", name: "*", path: [], defaults: [["mode", "additive"]] }],
});
