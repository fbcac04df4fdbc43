/**
 * The desired-state file format as one zod schema: the single source of the TypeScript types of a
 * file, of load-time validation and of schema/forgeplan.schema.json (editor completion and hover help).
 * Keys are snake_case, as in the service's request bodies. The schema has no transforms: a value that
 * passes is used as written, and defaults are applied by the resolver.
 */
import * as z from "zod";
import { ENV_REFERENCE } from "./interpolate.js";
import {
  branchProtectionProblems,
  personalRepositoryProblems,
  WILDCARD_BRANCH_MESSAGE,
  WILDCARD_FREE_BRANCH,
} from "./rules.js";
import { unknownNameHint } from "./suggest.js";

/**
 * A mapping that refuses keys it does not know. The unknown-key message carries one line per key,
 * each with a "did you mean" drawn from the known keys (the issue mapper splits them by line).
 */
function closed<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys
            .map((key) => `unknown key ${JSON.stringify(key)}; ${unknownNameHint(key, known)}`)
            .join("\n")
        : undefined,
  });
}

/** `null` is a value of its own here: "must be absent / disabled", unlike leaving the key out. */
function orNull<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.null()]);
}

const OWNER = "[A-Za-z0-9][A-Za-z0-9-]*";
const REPOSITORY = "[A-Za-z0-9._-]+";
const REPOSITORY_GLOB = "[A-Za-z0-9._*?\\[\\]!-]+";
const PLANNING_PATH = "[A-Za-z0-9_.][A-Za-z0-9_.-]*";

export const REPOSITORY_NAME = new RegExp(`^${OWNER}/${REPOSITORY}$`);
export const REPOSITORY_SELECTOR = new RegExp(`^${OWNER}/${REPOSITORY_GLOB}$`);

const name = (what: string) => z.string().min(1).describe(what);
const nameList = (what: string) => z.array(name(what));

const envVariable = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
  error: "expected an environment variable name such as GITHUB_TOKEN",
});

const secretReference = (what: string) =>
  z
    .string()
    .regex(ENV_REFERENCE, {
      error: "literal secrets are refused: write ${NAME} and set the environment variable NAME",
    })
    .describe(
      `${what}, as \${NAME}: read from the environment variable NAME, never written in the file.`,
    );

const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, error: `expected an http(s) URL such as ${example}` });

const positiveId = (what: string) => z.int().positive().describe(what);

/** A planning-side project or group: its numeric id or its full path (a project's has a namespace). */
const pathOrId = (what: string, example: string, namespaced: boolean) =>
  z
    .union([
      z.int().positive(),
      z
        .string()
        .regex(new RegExp(`^${PLANNING_PATH}(/${PLANNING_PATH})${namespaced ? "+" : "*"}$`), {
          error: `expected a numeric id or a full path such as ${example}`,
        }),
    ])
    .describe(what);

// ---------------------------------------------------------------------------------------------
// Branch protection: every field of the PUT body, each optional (a field not written is not managed).

const actorLists = (what: string) =>
  closed({
    users: nameList("A user login.").optional().describe(`Users (logins) ${what}.`),
    teams: nameList("A team slug.").optional().describe(`Teams (slugs) ${what}.`),
    apps: nameList("An app slug.").optional().describe(`Apps (slugs) ${what}.`),
  });

const statusCheck = closed({
  context: name("The name of the check, e.g. ci/build."),
  app_id: z
    .int()
    .min(-1)
    .optional()
    .describe(
      "The app that must provide the check; -1 allows any app; leave out to use the app that recently provided it.",
    ),
});

const requiredStatusChecks = closed({
  strict: z
    .boolean()
    .optional()
    .describe("Branches must be up to date with the base branch before merging."),
  contexts: nameList("A status check context.")
    .optional()
    .describe("Closing down in the service: use checks. Required status check contexts."),
  checks: z
    .array(statusCheck)
    .optional()
    .describe(
      "Required status checks, each with its context and optionally the app that must provide it.",
    ),
});

const requiredPullRequestReviews = closed({
  dismissal_restrictions: actorLists("who may dismiss reviews")
    .optional()
    .describe(
      "Who may dismiss pull request reviews; an empty mapping disables the restriction. Users and teams only for organization-owned repositories.",
    ),
  dismiss_stale_reviews: z
    .boolean()
    .optional()
    .describe("Dismiss approvals when new commits are pushed."),
  require_code_owner_reviews: z
    .boolean()
    .optional()
    .describe("Require a review from a code owner."),
  required_approving_review_count: z
    .int()
    .min(0)
    .max(6)
    .optional()
    .describe("Approvals required before merging: 1 to 6, or 0 for none."),
  require_last_push_approval: z
    .boolean()
    .optional()
    .describe("The most recent push must be approved by someone other than the pusher."),
  bypass_pull_request_allowances: actorLists("allowed to bypass pull request requirements")
    .optional()
    .describe("Who may bypass the pull request requirements."),
});

const pushRestrictions = closed({
  users: nameList("A user login.").describe("Users (logins) with push access."),
  teams: nameList("A team slug.").describe("Teams (slugs) with push access."),
  apps: nameList("An app slug.").optional().describe("Apps (slugs) with push access."),
});

export const branchProtectionSettings = closed({
  required_status_checks: orNull(requiredStatusChecks)
    .optional()
    .describe("Status checks that must pass before merging; null disables the requirement."),
  enforce_admins: orNull(z.boolean())
    .optional()
    .describe("Enforce the rules for administrators too; null or false disables."),
  required_pull_request_reviews: orNull(requiredPullRequestReviews)
    .optional()
    .describe("Pull request review requirements; null disables them."),
  restrictions: orNull(pushRestrictions)
    .optional()
    .describe(
      "Who may push; null lets everyone with write access push. Only for organization-owned repositories.",
    ),
  required_linear_history: z
    .boolean()
    .optional()
    .describe("Forbid merge commits; the repository must allow squash or rebase merging."),
  allow_force_pushes: orNull(z.boolean())
    .optional()
    .describe("Allow force pushes to the branch; null or false blocks them."),
  allow_deletions: z.boolean().optional().describe("Allow deleting the branch."),
  block_creations: z
    .boolean()
    .optional()
    .describe(
      "Push restrictions also block creating matching branches, except for those allowed to push.",
    ),
  required_conversation_resolution: z
    .boolean()
    .optional()
    .describe("All review conversations must be resolved before merging."),
  lock_branch: z.boolean().optional().describe("Make the branch read-only."),
  allow_fork_syncing: z
    .boolean()
    .optional()
    .describe("Allow pulling upstream changes into a fork while the branch is locked."),
});

export type BranchProtectionSettings = z.infer<typeof branchProtectionSettings>;

const branchName = z.string().regex(WILDCARD_FREE_BRANCH, { error: WILDCARD_BRANCH_MESSAGE });

const branchProtections = z
  .record(
    branchName,
    orNull(branchProtectionSettings).describe(
      "The protection of this branch; null means the branch must be unprotected.",
    ),
  )
  .superRefine((branches, context) => {
    for (const [branch, settings] of Object.entries(branches)) {
      if (settings === null) continue;
      for (const problem of branchProtectionProblems(settings)) {
        context.addIssue({
          code: "custom",
          path: [branch, ...problem.path],
          message: problem.message,
        });
      }
    }
  });

// ---------------------------------------------------------------------------------------------
// Webhooks

const webhook = closed({
  url: httpUrl("https://ci.example.com/hook").describe(
    "The delivery URL; hooks are matched to the live ones by it unless id is given.",
  ),
  id: positiveId("Pins an existing hook by its id (then url is the URL to set)").optional(),
  events: z
    .array(name("An event name, or * for all."))
    .optional()
    .describe("The events that trigger the hook."),
  active: z.boolean().optional().describe("Whether deliveries are sent."),
  content_type: z.enum(["json", "form"]).optional().describe("The payload format: json or form."),
  branch_filter: z
    .string()
    .optional()
    .describe("Only pushes to branches matching this filter trigger the hook."),
  config: z
    .strictObject(
      {
        insecure_ssl: z
          .enum(["0", "1"])
          .optional()
          .describe(
            '"1" skips verifying the TLS certificate of the delivery URL; "0" (default) verifies it.',
          ),
      },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys"
            ? issue.keys
                .map(
                  (key) =>
                    `unknown key ${JSON.stringify(key)}: the service keeps only url, content_type, secret and insecure_ssl in a hook's config (url, content_type and secret have their own keys here)`,
                )
                .join("\n")
            : undefined,
      },
    )
    .optional()
    .describe("The hook's further config: insecure_ssl."),
  secret: secretReference("The hook's signing secret").optional(),
  secret_version: z
    .never({
      error:
        "secret_version is no longer used: the service keeps no record of which secret was written; send secrets again with 'forgeplan apply --rotate-secrets'",
    })
    .optional()
    .describe("Refused: secrets are sent again with 'forgeplan apply --rotate-secrets'."),
  authorization_header: secretReference("The Authorization header sent with deliveries").optional(),
});

const webhooks = closed({
  mode: z
    .enum(["additive", "authoritative"])
    .optional()
    .describe(
      "additive (default): other live hooks are left alone; authoritative: hooks not listed are deleted.",
    ),
  hooks: z.array(webhook).optional().describe("The hooks this repository must have."),
});

const invitations = closed({
  allowed_invitees: z
    .array(
      z
        .string()
        .regex(/^[A-Za-z0-9*?[\]!-]+$/, { error: "expected a login or a glob such as octo-*" }),
    )
    .optional()
    .describe("Logins (globs allowed) that may hold open invitations; leave out to allow anyone."),
  max_age_days: z
    .int()
    .positive()
    .optional()
    .describe("Report invitations older than this many days."),
  report_expired: z
    .boolean()
    .optional()
    .describe("Report expired invitations that are still listed (default true)."),
});

const settingsShape = {
  branch_protection: branchProtections
    .optional()
    .describe(
      "Protection per branch name (no wildcards); null means the branch must be unprotected.",
    ),
  webhooks: webhooks.optional().describe("The repository's webhooks."),
  invitations: invitations
    .optional()
    .describe("Audit of the repository's open invitations (reported, never changed)."),
};

export const repositorySettings = closed(settingsShape);
export type RepositorySettings = z.infer<typeof repositorySettings>;

// ---------------------------------------------------------------------------------------------
// Entries

const targetName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, {
  error: "expected a name of letters, digits, '.', '_' and '-'",
});

const targetReference = (kind: string) =>
  targetName
    .optional()
    .describe(`The ${kind} target to use; optional when exactly one ${kind} target exists.`);

export const repositoryEntry = closed({
  name: z
    .string()
    .regex(REPOSITORY_SELECTOR, {
      error: 'expected "owner/repo" or a glob over one owner such as "acme/*" or "acme/svc-*"',
    })
    .describe(
      'The repository, "owner/repo", or a glob over one owner\'s repositories such as "acme/*".',
    ),
  exclude: z
    .array(
      z.string().regex(REPOSITORY_SELECTOR, {
        error: 'expected "owner/repo" or a glob such as "acme/legacy-*"',
      }),
    )
    .optional()
    .describe("Repositories (globs allowed) that a glob name must not select."),
  target: targetReference("repository"),
  owner_type: z
    .enum(["organization", "user"])
    .optional()
    .describe(
      "Who owns the repository, when known; user enables the checks for personal repositories.",
    ),
  profiles: z
    .array(targetName)
    .optional()
    .describe("Profiles applied in order, after defaults and before this entry's own settings."),
  ...settingsShape,
}).superRefine((entry, context) => {
  const glob = /[*?[]/.test(entry.name);
  if (entry.exclude !== undefined && !glob) {
    context.addIssue({
      code: "custom",
      path: ["exclude"],
      message: `exclude is only for glob names; ${entry.name} names one repository`,
    });
  }
  const owner = entry.name.split("/")[0]!.toLowerCase();
  for (const [index, excluded] of (entry.exclude ?? []).entries()) {
    if (glob && excluded.split("/")[0]!.toLowerCase() !== owner) {
      context.addIssue({
        code: "custom",
        path: ["exclude", index],
        message: `exclude must name repositories of ${entry.name.split("/")[0]}, the owner the name selects`,
      });
    }
  }
  if (entry.owner_type === "user") {
    for (const [branch, settings] of Object.entries(entry.branch_protection ?? {})) {
      if (settings === null) continue;
      for (const problem of personalRepositoryProblems(settings)) {
        context.addIssue({
          code: "custom",
          path: ["branch_protection", branch, ...problem.path],
          message: problem.message,
        });
      }
    }
  }
});
export type RepositoryEntryInput = z.infer<typeof repositoryEntry>;

const board = closed({
  name: name("The board's name.").optional(),
  id: positiveId("The board's id.").optional(),
}).refine((item) => (item.name === undefined) !== (item.id === undefined), {
  error: "give exactly one of name or id",
});

export const projectEntry = closed({
  project: pathOrId("The project: numeric id or full path such as acme/api.", "acme/api", true),
  target: targetReference("planning"),
  boards_absent: z
    .array(board.describe("A board that must not exist, by name or id."))
    .min(1)
    .describe("Issue boards that must not exist; they are deleted."),
});
export type ProjectEntryInput = z.infer<typeof projectEntry>;

const epicLink = closed({
  epic: positiveId("An epic's iid in this group.").optional(),
  related: positiveId(
    "The iid of the related epic (in related_group when given, else in this group).",
  ).optional(),
  related_group: pathOrId(
    "The group of the related epic, when it is in another group.",
    "partners",
    false,
  ).optional(),
  link_id: positiveId("The id of the related-epic link.").optional(),
}).superRefine((link, context) => {
  const message = (text: string) => context.addIssue({ code: "custom", path: [], message: text });
  if (link.link_id === undefined && (link.epic === undefined || link.related === undefined)) {
    message("give epic and related (the pair of epics), or link_id");
  } else if (link.link_id !== undefined && link.related !== undefined) {
    message(
      "give either the pair of epics (epic, related) or link_id (optionally with epic), not both",
    );
  }
  if (link.related_group !== undefined && link.related === undefined) {
    message("related_group needs related");
  }
});

export const groupEntry = closed({
  group: pathOrId("The group: numeric id or full path such as acme.", "acme", false),
  target: targetReference("planning"),
  epic_links_absent: z
    .array(
      epicLink.describe(
        "A related-epic link that must not exist: by the pair of epics, or by link id.",
      ),
    )
    .min(1)
    .describe("Related-epic links that must not exist; they are deleted."),
});
export type GroupEntryInput = z.infer<typeof groupEntry>;

const UTC_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

const gistAudit = closed({
  target: targetReference("repository"),
  allow_public: z
    .boolean()
    .optional()
    .describe("Whether public gists are allowed (default false: each is reported)."),
  since: z
    .string()
    .regex(UTC_TIME, { error: "expected a UTC time such as 2026-01-01T00:00:00Z" })
    .optional()
    .describe("Only audit gists updated after this time (YYYY-MM-DDTHH:MM:SSZ)."),
});

const migrationState = z.enum(["pending", "exporting", "exported", "failed"]);

const migrationAudit = closed({
  target: targetReference("repository"),
  org: name("The organization that owns the migration.").optional(),
  user: z.literal(true).optional().describe("true: a migration of the authenticated user."),
  id: positiveId("The migration id."),
  state: z
    .union([migrationState, z.array(migrationState).min(1)])
    .optional()
    .describe("The expected state, or a list of acceptable states."),
  repositories: z
    .array(
      z
        .string()
        .regex(REPOSITORY_NAME, { error: 'expected "owner/repo"' })
        .describe('A repository, "owner/repo".'),
    )
    .optional()
    .describe("The repositories the migration is expected to hold (in any order)."),
}).refine((audit) => (audit.org === undefined) !== (audit.user === undefined), {
  error: "give exactly one of org (an organization migration) or user: true (your own migration)",
});

const target = closed({
  type: z
    .enum(["repository", "planning"])
    .describe(
      "repository: repository-style paths (GitHub-like); planning: /api/v4 paths (GitLab-like).",
    ),
  base_url: httpUrl("https://api.github.com")
    .optional()
    .describe("Where the API is served (https://api.github.com or https://gitlab.com by default)."),
  token_env: envVariable
    .optional()
    .describe(
      "The environment variable holding the token (GITHUB_TOKEN or GITLAB_TOKEN by default).",
    ),
  token: z
    .never({
      error:
        "inline tokens are refused: put the token in an environment variable and name it with token_env",
    })
    .optional()
    .describe("Refused: tokens are never written in the file; use token_env."),
});

export const configFile = closed({
  version: z.literal(1).describe("The format version; always 1."),
  targets: z
    .record(targetName, target.describe("A connection to one service."))
    .optional()
    .describe(
      'Named connections. Without any, forgeplan uses "github" (repository, https://api.github.com, GITHUB_TOKEN) and "gitlab" (planning, https://gitlab.com, GITLAB_TOKEN).',
    ),
  defaults: repositorySettings
    .optional()
    .describe("Settings applied to every repository entry, first."),
  profiles: z
    .record(targetName, repositorySettings.describe("A named set of repository settings."))
    .optional()
    .describe("Named settings that repository entries apply with profiles:, after defaults."),
  repositories: z
    .array(repositoryEntry.describe("Settings for one repository or a glob of them."))
    .optional()
    .describe("Repository settings: branch protections, webhooks, invitation audits."),
  projects: z
    .array(projectEntry.describe("Clean-ups in one project."))
    .optional()
    .describe("Planning-side clean-ups per project."),
  groups: z
    .array(groupEntry.describe("Clean-ups in one group."))
    .optional()
    .describe("Planning-side clean-ups per group."),
  audits: closed({
    gists: gistAudit.optional().describe("Audit of the authenticated user's gists."),
    migrations: z
      .array(migrationAudit.describe("One migration and what it is expected to be."))
      .optional()
      .describe("Audits of migrations: expected state and repositories."),
  })
    .optional()
    .describe("Reports that change nothing."),
});

export type ConfigFile = z.infer<typeof configFile>;
