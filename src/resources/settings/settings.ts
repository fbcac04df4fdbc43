/**
 * How a repository's own settings are written (`settings:` in defaults, profiles and repository
 * entries): the fields of GitHub's `PATCH /repos/{owner}/{repo}` a settings tool manages, the
 * settings with endpoints of their own, and the repository's lifecycle (create, previous names,
 * what archived repositories get). Keys are GitHub's request-body keys.
 */
import * as z from "zod";
import { closed, httpUrl, orNull, positiveId } from "../../config/fields.js";
import { closest } from "../../config/suggest.js";
import {
  type Defined,
  defineSetting,
  type EntryFacts,
  type PrintBlock,
  type RuleProblem,
} from "../../config/spec.js";

const ON_OFF = "true: on; false: off.";

const flag = (what: string) => z.boolean().optional().describe(`${what} ${ON_OFF}`);

const status = z
  .enum(["enabled", "disabled"])
  .describe("enabled or disabled, as GitHub's request body says it.");

const feature = (what: string) =>
  closed({ status })
    .optional()
    .describe(`${what}, as GitHub writes it: {status: enabled | disabled}.`);

const reviewer = closed({
  reviewer_id: positiveId("The id of the team or of the role."),
  reviewer_type: z.enum(["TEAM", "ROLE"]).describe("TEAM or ROLE."),
  mode: z.enum(["ALWAYS", "EXEMPT"]).optional().describe("ALWAYS (GitHub's default) or EXEMPT."),
});

/** Every member GitHub's request schema for `PATCH /repos/{owner}/{repo}` lists. */
export const securityAndAnalysis = closed({
  advanced_security: feature("GitHub Advanced Security"),
  code_security: feature("GitHub Code Security"),
  secret_scanning: feature("Secret scanning"),
  secret_scanning_push_protection: feature("Push protection of secret scanning"),
  secret_scanning_ai_detection: feature("AI detection of generic secrets"),
  secret_scanning_non_provider_patterns: feature("Scanning for non-provider patterns"),
  secret_scanning_delegated_alert_dismissal: feature(
    "Delegated dismissal of secret scanning alerts",
  ),
  secret_scanning_delegated_bypass: feature("Delegated bypass of push protection"),
  secret_scanning_delegated_bypass_options: closed({
    reviewers: z
      .array(reviewer)
      .refine(
        (reviewers) =>
          new Set(reviewers.map((one) => `${one.reviewer_type}:${one.reviewer_id}`)).size ===
          reviewers.length,
        { error: "a team or role is listed twice" },
      )
      .describe("Who may approve a bypass: teams and roles, compared as a set."),
  })
    .optional()
    .describe("Options of the delegated bypass: its reviewers."),
});

/**
 * GitHub's topics: "Topics must start with a lowercase letter or number, consist of 50 characters
 * or less, and can include hyphens" (docs.github.com, "Classifying your repository with topics").
 */
export const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;

/** A repository name as GitHub keeps it. */
const REPOSITORY_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * GitHub's request schemas for `PATCH /repos/{owner}/{repo}` and `POST /orgs/{org}/repos` list
 * `visibility` as public or private only: internal is a value they lack, so forgeplan never sends it.
 */
const visibility = z
  .enum(["public", "private"], {
    error: (issue) =>
      issue.input === "internal"
        ? "visibility internal is refused: GitHub's published request schemas for PATCH /repos/{owner}/{repo} and POST /orgs/{org}/repos accept only public or private, so forgeplan does not send it"
        : undefined,
  })
  .optional()
  .describe(
    "public or private. A change is applied only with --allow-visibility (GitHub: stars, watchers and forks are affected).",
  );

const branchName = z.string().min(1);

/**
 * Keys of GitHub's request schema for `PATCH /repos/{owner}/{repo}` that `settings` says another
 * way, and why: a user who writes them is told where the setting is.
 */
const SAID_ANOTHER_WAY: Readonly<Record<string, string>> = {
  name: "a repository's name is its entry's name; to rename one, name it there and list its old names in previously",
  private:
    "write visibility: public or private (GitHub's request schema takes either; forgeplan sends visibility)",
  use_squash_pr_title_as_default:
    'GitHub\'s request schema marks it "closing down. Please use squash_merge_commit_title instead"',
};

/**
 * Why a key is refused when it is no key of `settings` and near none: a field GitHub reports but its
 * request schema does not take (such as `stargazers_count`) is never sent, and the message says so
 * beside the keys there are.
 */
function settingsKeyRefused(key: string): string | undefined {
  const known = Object.keys(repositorySettings.shape);
  if (SAID_ANOTHER_WAY[key] !== undefined) return SAID_ANOTHER_WAY[key];
  if (closest(key, known) !== undefined) return undefined;
  return `forgeplan sends only fields of GitHub's request schema for PATCH /repos/{owner}/{repo} (and topics and the security toggles, which have endpoints of their own); expected one of: ${known.join(", ")}`;
}

const repositorySettings = closed(
  {
    description: orNull(z.string().max(350))
      .optional()
      .describe("A short description; null: none."),
    homepage: orNull(httpUrl("https://acme.example/api"))
      .optional()
      .describe("A URL with more information; null: none."),
    visibility,
    has_issues: flag("Issues."),
    has_projects: flag("Projects."),
    has_wiki: flag("The wiki."),
    is_template: flag("A template repository."),
    allow_forking: flag("Private forks."),
    default_branch: branchName
      .optional()
      .describe(
        "The default branch: switches to a branch that exists (a missing one is an error naming the branches); renaming is rename_default_branch.",
      ),
    rename_default_branch: closed({
      from: branchName.describe("The default branch's current name."),
      to: branchName.describe("Its new name."),
    })
      .refine((rename) => rename.from !== rename.to, {
        error: "from and to name the same branch",
        path: ["to"],
      })
      .optional()
      .describe(
        "Renames the default branch (POST …/branches/{from}/rename) while it is still called from; done once it is called to.",
      ),
    allow_merge_commit: flag("Merging pull requests with a merge commit."),
    allow_squash_merge: flag("Squash merging."),
    allow_rebase_merge: flag("Rebase merging."),
    allow_auto_merge: flag("Auto-merge."),
    delete_branch_on_merge: flag("Deleting head branches once merged."),
    allow_update_branch: flag("Always suggesting to update a pull request's branch."),
    squash_merge_commit_title: z
      .enum(["PR_TITLE", "COMMIT_OR_PR_TITLE"])
      .optional()
      .describe("The default title of a squash commit; written with squash_merge_commit_message."),
    squash_merge_commit_message: z
      .enum(["PR_BODY", "COMMIT_MESSAGES", "BLANK"])
      .optional()
      .describe("The default message of a squash commit; written with squash_merge_commit_title."),
    merge_commit_title: z
      .enum(["PR_TITLE", "MERGE_MESSAGE"])
      .optional()
      .describe("The default title of a merge commit; written with merge_commit_message."),
    merge_commit_message: z
      .enum(["PR_BODY", "PR_TITLE", "BLANK"])
      .optional()
      .describe("The default message of a merge commit; written with merge_commit_title."),
    web_commit_signoff_required: flag("Requiring sign-off on web-based commits."),
    archived: z
      .boolean()
      .optional()
      .describe("Archived (read-only). Archiving is applied last, unarchiving first."),
    security_and_analysis: securityAndAnalysis
      .optional()
      .describe("Security and analysis features, each compared when written."),
    topics: z
      .array(
        z.string().regex(TOPIC, {
          error:
            "expected a topic: a lowercase letter or digit first, then letters, digits and hyphens, at most 50",
        }),
      )
      .max(20, { error: "GitHub allows at most 20 topics" })
      .optional()
      .describe("The repository's topics, compared as a set (PUT …/topics)."),
    vulnerability_alerts: flag("Dependabot alerts (…/vulnerability-alerts)."),
    automated_security_fixes: flag(
      "Dependabot security updates (…/automated-security-fixes); they need vulnerability alerts.",
    ),
    private_vulnerability_reporting: flag(
      "Private vulnerability reporting (…/private-vulnerability-reporting); public repositories only.",
    ),
    archived_repositories: z
      .enum(["skip", "unarchive"])
      .optional()
      .describe(
        "When the repository is archived and stays so: skip (default) reports changes to it as not applied; unarchive unarchives it, applies them and archives it again. Written, a glob also selects archived repositories.",
      ),
    create: z
      .boolean()
      .optional()
      .describe(
        "true: create the repository when it does not exist (applied only with --allow-create). forgeplan never deletes one.",
      ),
    previously: z
      .array(
        z.string().regex(REPOSITORY_NAME, {
          error: "expected a repository name (without the owner)",
        }),
      )
      .min(1)
      .optional()
      .describe(
        "Names the repository had: found only under one of them, it is renamed to the entry's name (last, after its other changes).",
      ),
  },
  settingsKeyRefused,
);

export type RepositorySettings = z.infer<typeof repositorySettings>;
export type SecurityAndAnalysis = z.infer<typeof securityAndAnalysis>;

/**
 * The commit-message pairs GitHub takes together: its request schema marks each title "Required
 * when using" the message, and its settings pages offer only these combinations ("Configuring commit
 * squashing for pull requests", "Configuring commit merging for pull requests" on docs.github.com).
 */
export const COMMIT_MESSAGE_PAIRS = [
  {
    title: "squash_merge_commit_title",
    message: "squash_merge_commit_message",
    pairs: [
      ["COMMIT_OR_PR_TITLE", "COMMIT_MESSAGES"],
      ["PR_TITLE", "BLANK"],
      ["PR_TITLE", "COMMIT_MESSAGES"],
      ["PR_TITLE", "PR_BODY"],
    ],
  },
  {
    title: "merge_commit_title",
    message: "merge_commit_message",
    pairs: [
      ["MERGE_MESSAGE", "PR_TITLE"],
      ["PR_TITLE", "BLANK"],
      ["PR_TITLE", "PR_BODY"],
    ],
  },
] as const;

function commitMessageProblems(value: RepositorySettings): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const { title, message, pairs } of COMMIT_MESSAGE_PAIRS) {
    const [first, second] = [value[title], value[message]];
    if (first === undefined && second === undefined) continue;
    const offered = pairs.map((pair) => pair.join(" with ")).join(", ");
    if (first === undefined || second === undefined) {
      const missing = first === undefined ? title : message;
      problems.push({
        path: [first === undefined ? message : title],
        message: `write ${missing} beside it: GitHub takes ${title} and ${message} together (its request schema: the title is "Required when using" the message; its settings offer ${offered})`,
      });
      continue;
    }
    if (!pairs.some(([a, b]) => a === first && b === second)) {
      problems.push({
        path: [message],
        message: `${title} ${first} with ${message} ${second} is not a combination GitHub offers: ${offered}`,
      });
    }
  }
  return problems;
}

/** Rules over what defaults, profiles and an entry make together (paths relative to `settings`). */
function settingsRules(settings: RepositorySettings, entry: EntryFacts): RuleProblem[] {
  const problems = commitMessageProblems(settings);
  if (settings.automated_security_fixes === true && settings.vulnerability_alerts === false) {
    problems.push({
      path: ["automated_security_fixes"],
      message:
        'automated security fixes need vulnerability_alerts: GitHub answers "Vulnerability alerts must be enabled to configure automated security fixes."',
    });
  }
  if (settings.private_vulnerability_reporting === true && settings.visibility === "private") {
    problems.push({
      path: ["private_vulnerability_reporting"],
      message:
        "private vulnerability reporting is for public repositories: GitHub offers it to owners and admins of public repositories",
    });
  }
  const rename = settings.rename_default_branch;
  if (
    rename !== undefined &&
    settings.default_branch !== undefined &&
    settings.default_branch !== rename.to
  ) {
    problems.push({
      path: ["default_branch"],
      message: `default_branch ${settings.default_branch} is not the name rename_default_branch gives it (${rename.to})`,
      sameAs: ["rename_default_branch", "to"],
    });
  }
  for (const key of ["create", "previously"] as const) {
    if (settings[key] !== undefined && entry.glob === true) {
      problems.push({
        path: [key],
        message: `${key} is for an entry that names one repository, never a glob`,
      });
    }
  }
  if (settings.create === true && settings.visibility === undefined) {
    problems.push({
      path: ["create"],
      message:
        "a repository forgeplan creates needs visibility (public or private): GitHub creates a public one when not told",
    });
  }
  return problems;
}

/** Keys that set one thing together: a commit-message pair, the default branch and its rename. */
const TOGETHER: ReadonlyArray<{ keys: readonly string[]; what: string }> = [
  {
    keys: ["squash_merge_commit_title", "squash_merge_commit_message"],
    what: "the squash commit message defaults",
  },
  {
    keys: ["merge_commit_title", "merge_commit_message"],
    what: "the merge commit message defaults",
  },
  { keys: ["default_branch", "rename_default_branch"], what: "the default branch" },
];

/**
 * What a value defines, for the once-only check of entries that name one repository and for
 * export and PR-scoped plans: each setting, and the keys that set one thing together as one.
 */
function settingsDefines(value: RepositorySettings): Defined[] {
  const written = Object.keys(value);
  const defined: Defined[] = [];
  const grouped = new Set<string>();
  for (const { keys, what } of TOGETHER) {
    const [first, ...rest] = keys.filter((key) => written.includes(key));
    if (first === undefined) continue;
    keys.forEach((key) => grouped.add(key));
    defined.push({
      id: what,
      path: [first],
      ...(rest.length > 0 ? { also: rest.map((key) => [key]) } : {}),
      what,
    });
  }
  for (const key of written) {
    if (!grouped.has(key)) defined.push({ id: key, path: [key], what: `the setting ${key}` });
  }
  return defined;
}

/**
 * `validate --print`: one block of every value, and one per bypass reviewer so each of its fields
 * shows the line it is written on.
 */
function printSettings(value: RepositorySettings): PrintBlock[] {
  const reviewers =
    value.security_and_analysis?.secret_scanning_delegated_bypass_options?.reviewers ?? [];
  return [
    { kind: "settings", name: "repository", path: [] },
    ...reviewers.map((reviewer, index) => ({
      kind: "settings",
      name: `bypass reviewer ${reviewer.reviewer_type} ${reviewer.reviewer_id}`,
      path: [
        "security_and_analysis",
        "secret_scanning_delegated_bypass_options",
        "reviewers",
        index,
      ],
    })),
  ];
}

export const settingsSetting = defineSetting({
  key: "settings",
  schema: repositorySettings.describe(
    "The repository's own settings (GitHub's PATCH /repos/{owner}/{repo}, its topics and security toggles) and its lifecycle: create, previously, archived_repositories. A field not written is left as the service has it.",
  ),
  rules: settingsRules,
  defines: settingsDefines,
  print: printSettings,
});
