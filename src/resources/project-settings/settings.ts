/**
 * How a GitLab project's own settings are written (`settings:` in `project_defaults`,
 * `project_profiles` and `projects` entries): the fields of GitLab's "Edit a project"
 * (`PUT /projects/:id`, lib/api/helpers/projects_helpers.rb `optional_project_params_ce`) a settings
 * tool manages. Keys are GitLab's parameter names; a field not written is left as GitLab has it.
 * The project's lifecycle is here too, as a repository's is in `settings` on GitHub: `create`,
 * `previously` (a rename or a move to another group), `archived` and `archived_repositories`.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import {
  type Defined,
  defineSetting,
  type EntryFacts,
  type RuleProblem,
} from "../../config/spec.js";

/** GitLab's feature access levels, lowest first (ProjectFeature: 0, 10, 20, 30). */
export const ACCESS_LEVELS = ["disabled", "private", "enabled", "public"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/**
 * The features whose access level `PUT /projects/:id` takes, each `disabled | private | enabled`;
 * `pages_access_level` also `public` (projects_helpers.rb, `values: %w[disabled private enabled]`).
 */
export const FEATURES = [
  "issues_access_level",
  "repository_access_level",
  "merge_requests_access_level",
  "forking_access_level",
  "wiki_access_level",
  "builds_access_level",
  "snippets_access_level",
  "pages_access_level",
  "analytics_access_level",
  "container_registry_access_level",
  "security_and_compliance_access_level",
  "releases_access_level",
  "environments_access_level",
  "feature_flags_access_level",
  "infrastructure_access_level",
  "monitor_access_level",
  "model_experiments_access_level",
  "model_registry_access_level",
] as const;

/**
 * Features that may not be open wider than the repository (GitLab's ProjectFeature validates
 * `repository_children_level`: "cannot have higher visibility level than repository access level").
 */
export const REPOSITORY_CHILDREN = [
  "merge_requests_access_level",
  "forking_access_level",
  "builds_access_level",
] as const;

export const FLAGS = [
  "request_access_enabled",
  "only_allow_merge_if_pipeline_succeeds",
  "allow_merge_on_skipped_pipeline",
  "only_allow_merge_if_all_discussions_are_resolved",
  "remove_source_branch_after_merge",
  "allow_pipeline_trigger_approve_deployment",
] as const;

/**
 * Fields GitLab keeps only where the tier has their feature: it drops them from the request and
 * leaves them out of its answer elsewhere (ee/lib/ee/api/helpers/projects_helpers.rb
 * `filter_attributes_using_license!`; ee/lib/ee/api/entities/project.rb exposes it `if:
 * project.feature_available?(:protected_environments)`, a Premium feature).
 */
export const TIERED: Readonly<Record<string, string>> = {
  allow_pipeline_trigger_approve_deployment: "Premium (protected environments)",
};

const FEATURE_WORDS: Record<Feature, string> = {
  issues_access_level: "Issues",
  repository_access_level: "The repository",
  merge_requests_access_level: "Merge requests",
  forking_access_level: "Forks",
  wiki_access_level: "The wiki",
  builds_access_level: "CI/CD (builds)",
  snippets_access_level: "Snippets",
  pages_access_level: "Pages",
  analytics_access_level: "Analytics",
  container_registry_access_level: "The container registry",
  security_and_compliance_access_level: "Security and compliance",
  releases_access_level: "Releases",
  environments_access_level: "Environments",
  feature_flags_access_level: "Feature flags",
  infrastructure_access_level: "Infrastructure",
  monitor_access_level: "Monitor",
  model_experiments_access_level: "Model experiments",
  model_registry_access_level: "The model registry",
};

const FLAG_WORDS: Record<Flag, string> = {
  request_access_enabled: "Users may request access to the project.",
  only_allow_merge_if_pipeline_succeeds: "Merge requests merge only when their pipeline succeeded.",
  allow_merge_on_skipped_pipeline: "A skipped pipeline counts as a succeeded one for merging.",
  only_allow_merge_if_all_discussions_are_resolved:
    "Merge requests merge only when all their threads are resolved.",
  remove_source_branch_after_merge: "Delete the source branch by default after a merge.",
  allow_pipeline_trigger_approve_deployment:
    "A pipeline's trigger may approve its deployments (Premium: GitLab drops it below).",
};

type Feature = (typeof FEATURES)[number];
type Flag = (typeof FLAGS)[number];

const threeLevels = z.enum(["disabled", "private", "enabled"]);

/** One optional key per name, each as `make` describes it (typed by the names given). */
function keysOf<K extends string, T extends z.ZodType>(
  names: readonly K[],
  make: (name: K) => T,
): Record<K, T> {
  return Object.fromEntries(names.map((name) => [name, make(name)])) as Record<K, T>;
}

const levels = keysOf(
  FEATURES.filter(
    (field): field is Exclude<Feature, "pages_access_level"> => field !== "pages_access_level",
  ),
  (field) =>
    threeLevels.optional().describe(`${FEATURE_WORDS[field]}: disabled | private | enabled.`),
);

/**
 * A topic as GitLab keeps it: its `topics` parameter splits on commas and strips blanks
 * (API::Validations::Types::CommaSeparatedToArray), and a topic's name has at most 255 characters.
 */
const topic = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^,\s](?:[^,]*[^,\s])?$/, {
    error: "a topic has no comma and no blank at either end (GitLab splits topics on commas)",
  })
  .describe("A topic.");

/** Project paths GitLab refuses for ci_config_path: "cannot include leading slash or directory traversal." */
const ciConfigPath = z
  .string()
  .max(255)
  .refine((path) => !path.startsWith("/") && !path.includes(".."), {
    error: "GitLab refuses a CI config path with a leading slash or directory traversal (..)",
  });

/** GitLab's Project model limits templates to 500 characters and a description to 2,000. */
const template = (what: string) =>
  orNull(z.string().max(500)).optional().describe(`${what}; null: GitLab's default template.`);

/** A project's full path: its groups' paths and its own, at least two segments. */
const FULL_PATH = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*(\/[a-zA-Z0-9_][a-zA-Z0-9_.-]*)+$/;

export const projectSettings = closed({
  description: z.string().max(2000).optional().describe("The project's description."),
  topics: z
    .array(topic)
    .refine((list) => new Set(list.map((name) => name.toLowerCase())).size === list.length, {
      error: "a topic is listed twice (GitLab compares topics ignoring case)",
    })
    .optional()
    .describe(
      "The project's topics, compared as a set ignoring case (GitLab keeps an existing topic's case).",
    ),
  visibility: z
    .enum(["private", "internal", "public"])
    .optional()
    .describe("private, internal or public; a change is applied only with --allow-visibility."),
  default_branch: z
    .string()
    .min(1)
    .optional()
    .describe("The default branch: an existing branch of the project (never created or renamed)."),
  merge_method: z
    .enum(["merge", "rebase_merge", "ff"])
    .optional()
    .describe("merge (a merge commit), rebase_merge (a merge commit, fast-forward only) or ff."),
  squash_option: z
    .enum(["never", "always", "default_on", "default_off"])
    .optional()
    .describe("Squashing on merge: never, always, default_on or default_off."),
  merge_commit_template: template("The template of merge commit messages"),
  squash_commit_template: template("The template of squash commit messages"),
  ...keysOf(FLAGS, (flag: Flag) => z.boolean().optional().describe(FLAG_WORDS[flag])),
  ...levels,
  pages_access_level: z
    .enum(ACCESS_LEVELS)
    .optional()
    .describe(`${FEATURE_WORDS.pages_access_level}: disabled | private | enabled | public.`),
  ci_config_path: orNull(ciConfigPath)
    .optional()
    .describe("The path of the CI configuration file; null: GitLab's default (.gitlab-ci.yml)."),
  auto_cancel_pending_pipelines: z
    .enum(["disabled", "enabled"])
    .optional()
    .describe("Redundant pending pipelines are cancelled: enabled or disabled."),
  build_timeout: z
    .int()
    .min(600)
    .max(2629745)
    .optional()
    .describe(
      "The job timeout in seconds: GitLab takes 10 minutes (600) to under a month (2629746).",
    ),
  archived: z
    .boolean()
    .optional()
    .describe("Archived (read-only). Archiving is applied last, unarchiving first."),
  archived_repositories: z
    .enum(["skip", "unarchive"])
    .optional()
    .describe(
      "When the project is archived and stays so: skip (default) reports changes to it as not applied; unarchive unarchives it, applies them and archives it again. Written, a glob also selects archived projects.",
    ),
  create: z
    .boolean()
    .optional()
    .describe(
      "true: create the project in its group when it does not exist (applied only with --allow-create). forgeplan never deletes one.",
    ),
  previously: z
    .array(
      z.string().regex(FULL_PATH, {
        error: "expected a project's full path (group/…/project)",
      }),
    )
    .min(1)
    .optional()
    .describe(
      "Full paths the project had: found only under one of them, it is moved to the entry's group and path (last, after its other changes).",
    ),
});

export type ProjectSettings = z.output<typeof projectSettings>;

export const LEVEL_RANK: Readonly<Record<AccessLevel, number>> = {
  disabled: 0,
  private: 1,
  enabled: 2,
  public: 3,
};

/** A feature opened wider than the repository, as both are written: GitLab refuses it. */
export function childrenAbove(value: Readonly<Record<string, unknown>>): string[] {
  const repository = value.repository_access_level as AccessLevel | undefined;
  if (repository === undefined) return [];
  return REPOSITORY_CHILDREN.filter((field) => {
    const written = value[field] as AccessLevel | undefined;
    return written !== undefined && LEVEL_RANK[written] > LEVEL_RANK[repository];
  });
}

function rules(value: ProjectSettings, entry: EntryFacts): RuleProblem[] {
  const problems: RuleProblem[] = childrenAbove(value).map((field) => ({
    path: [field],
    message: `${field} ${String(value[field as keyof ProjectSettings])} is wider than repository_access_level ${value.repository_access_level}: GitLab answers "cannot have higher visibility level than repository access level"`,
    sameAs: ["repository_access_level"],
  }));
  for (const key of ["create", "previously"] as const) {
    if (value[key] !== undefined && entry.glob === true) {
      problems.push({
        path: [key],
        message: `${key} is for an entry that names one project, never a glob`,
      });
    }
  }
  if (value.create === true && value.visibility === undefined) {
    problems.push({
      path: ["create"],
      message:
        "a project forgeplan creates needs visibility (private, internal or public): GitLab otherwise gives it the instance's default",
    });
  }
  return problems;
}

/** Each key is a setting of its own: entries may split them, and a PR-scoped plan keeps each. */
function defines(value: ProjectSettings): Defined[] {
  return Object.keys(value).map((key) => ({ id: key, path: [key], what: `the setting ${key}` }));
}

export const projectSettingsSetting = defineSetting({
  key: "settings",
  schema: projectSettings.describe(
    "The GitLab project's own settings (GitLab's PUT /projects/:id): description, topics, visibility, default branch, merge options, feature access levels, request access and CI settings; and its lifecycle: create, previously, archived, archived_repositories. A field not written is left as GitLab has it.",
  ),
  rules,
  defines,
  print: () => [{ kind: "project_settings", name: "project", path: [] }],
});
