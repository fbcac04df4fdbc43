/**
 * The desired-state file format as one zod schema: the single source of the TypeScript types of a
 * file, of load-time validation and of schema/forgeplan.schema.json (editor completion and hover help).
 * Keys are snake_case, as in the service's request bodies. The schema has no transforms: a value that
 * passes is used as written, and defaults are applied by the resolver.
 *
 * This module builds the frame; the keys of repository settings and the sections come from the
 * resource kinds through a ConfigSpec.
 */
import * as z from "zod";
import {
  listCheckedByWrittenKeys,
  closed,
  httpUrl,
  PROJECT_SELECTOR,
  PROPERTY_NAME,
  REPOSITORY_SELECTOR,
  targetName,
  targetReference,
} from "./fields.js";
import type { ConfigSpec, SectionSpec, SelectingScope, TargetType } from "./spec.js";

const envVariable = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
  error: "expected an environment variable name such as GITHUB_TOKEN",
});

/** A positive id, as a number or as `${VAR}` (interpolated values are strings). */
const numericId = (what: string) =>
  z
    .union([
      z.int().positive(),
      z.string().regex(/^[1-9][0-9]{0,15}$/, {
        error: "expected a positive number, or ${NAME} to read it from the environment",
      }),
    ])
    .describe(`${what}: a number, or \${NAME} to read it from the environment.`);

const target = closed({
  type: z
    .enum(["github", "gitlab", "repository", "planning"])
    .describe(
      "github: GitHub's REST and GraphQL APIs; gitlab: GitLab's /api/v4. repository and planning are the older names of github and gitlab.",
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
  app_id: numericId("The GitHub App's id")
    .optional()
    .describe(
      "Authenticate as this GitHub App's installation instead of with a token (repository targets): its id, a number or ${NAME}.",
    ),
  private_key_env: envVariable
    .optional()
    .describe("The environment variable holding the App's private key (PEM)."),
  private_key_file: z
    .string()
    .min(1)
    .optional()
    .describe("A file holding the App's private key (PEM), relative to this file."),
  private_key: z
    .never({
      error:
        "inline private keys are refused: put the key in an environment variable (private_key_env) or a file (private_key_file)",
    })
    .optional()
    .describe(
      "Refused: keys are never written in the file; use private_key_env or private_key_file.",
    ),
  limits: z
    .enum(["gitlab.com", "none"])
    .optional()
    .describe(
      "GitLab targets: gitlab.com paces GitLab.com's per-endpoint limits and its 2,000 API requests a minute; none runs at the configured concurrency (a self-managed instance). Default: gitlab.com when base_url is on gitlab.com, else none.",
    ),
  installation_id: numericId("The installation's id")
    .optional()
    .describe(
      "The App installation to act as; by default the one on the owner of the target's repositories.",
    ),
}).superRefine((value, context) => {
  const keys = ["private_key_env", "private_key_file"] as const;
  const given = keys.filter((key) => value[key] !== undefined);
  const problem = (path: string, message: string) =>
    context.addIssue({ code: "custom", path: [path], message });
  if (value.limits !== undefined && familyOf(value.type) !== "gitlab") {
    problem(
      "limits",
      "limits is for GitLab targets: GitHub's are paced as the service reports them",
    );
  }
  if (value.app_id === undefined) {
    for (const key of [
      ...given,
      ...(value.installation_id !== undefined ? ["installation_id"] : []),
    ]) {
      problem(key, "only for App authentication: add app_id");
    }
    return;
  }
  if (familyOf(value.type) !== "github")
    problem("app_id", "GitHub App authentication is for GitHub targets");
  if (value.token_env !== undefined) {
    problem(
      "token_env",
      "a target authenticates with a token or as an App: remove token_env or app_id",
    );
  }
  if (given.length !== 1) {
    problem(
      "app_id",
      "an App needs its private key: set one of private_key_env and private_key_file",
    );
  }
});

/** The family a target's `type` names: the older names stand for the families they always meant. */
export function familyOf(type: TargetTypeName): TargetType {
  return type === "repository" ? "github" : type === "planning" ? "gitlab" : type;
}

type TargetTypeName = TargetType | "repository" | "planning";

/** A scope's settings keys, each optional: a key not written is not managed. */
function settingsShape(spec: ConfigSpec, scope: SelectingScope): z.ZodRawShape {
  return Object.fromEntries(
    spec.settings[scope].map((setting) => [setting.key, setting.schema.optional()]),
  );
}

/** GitHub's custom property values: printable ASCII without `"`; a true_false property is "true"/"false". */
const propertyText = z.string().regex(/^[\x20-\x21\x23-\x7e]+$/, {
  error: 'expected a property value of printable ASCII characters without "',
});
const propertyValue = z.union([
  propertyText,
  z.boolean(),
  z.array(propertyText).min(1, { error: "list at least one value" }),
]);

/**
 * What a schema is for: describing the file (the JSON Schema) or checking one (the loader, which
 * checks a list's entries by the keys they write: `listCheckedByWrittenKeys`); `count` checks as
 * `check` does and counts, without keeping, a long list's errors past those listed (the loader
 * uses it for a file that holds no alias).
 */
export type SchemaUse = "describe" | "check" | "count";

/**
 * A list of entries of `shape`, described by `entry`. `refine` looks at an entry only when it
 * writes one of `refinedKeys`.
 */
function entryList<T extends z.ZodRawShape>(
  use: SchemaUse,
  entry: string,
  shape: T,
  refinedKeys: ReadonlyArray<keyof T & string>,
  refine: (entry: z.output<z.ZodObject<T>>, context: z.core.$RefinementCtx) => void,
): z.ZodType {
  return use === "describe"
    ? z.array(closed(shape).superRefine(refine).describe(entry))
    : listCheckedByWrittenKeys(shape, refine, refinedKeys, use === "count");
}

function repositoryList(spec: ConfigSpec, use: SchemaUse) {
  return entryList(
    use,
    "Settings for one repository or a glob of them.",
    {
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
      where: closed({
        properties: z
          .record(
            z.string().regex(PROPERTY_NAME, {
              error: "expected a custom property name: letters, digits, _, -, $ and #, at most 75",
            }),
            propertyValue,
          )
          .refine((wanted) => Object.keys(wanted).length > 0, {
            error: "name at least one custom property",
          })
          .describe(
            "Custom properties the repository must have, by name (case-insensitive): a value, or a list of values any of which will do; a multi-select property matches when it holds one of them.",
          ),
      })
        .optional()
        .describe(
          "What a repository of a glob name must also be: read from the organization's custom property values.",
        ),
      target: targetReference("github"),
      owner_type: z
        .enum(["organization", "user"])
        .optional()
        .describe(
          "Who owns the repository, when known; user enables the checks for personal repositories.",
        ),
      profiles: z
        .array(targetName)
        .optional()
        .describe(
          "Profiles applied in order, after defaults and before this entry's own settings.",
        ),
      ...settingsShape(spec, "repository"),
    },
    ["where", "exclude"],
    (entry, context) => {
      // Every rule below is about where or exclude (its refinedKeys); most entries write neither.
      if (entry.where === undefined && entry.exclude === undefined) return;
      const glob = /[*?[]/.test(entry.name);
      if (entry.where !== undefined && !glob) {
        context.addIssue({
          code: "custom",
          path: ["where"],
          message: `where is only for glob names; ${entry.name} names one repository`,
        });
      }
      const seen = new Set<string>();
      for (const property of Object.keys(entry.where?.properties ?? {})) {
        if (seen.has(property.toLowerCase())) {
          context.addIssue({
            code: "custom",
            path: ["where", "properties", property],
            message: `custom property ${property} is named twice (names are case-insensitive)`,
          });
        }
        seen.add(property.toLowerCase());
      }
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
    },
  );
}

/** The group a project glob lists (its literal segments) and the glob below it. */
export function projectGlobParts(selector: string): { root: string; pattern: string } {
  const segments = selector.split("/");
  const first = segments.findIndex((segment) => /[*?[]/.test(segment));
  return {
    root: segments.slice(0, first).join("/"),
    pattern: segments.slice(first).join("/"),
  };
}

const isGlob = (name: string) => /[*?[]/.test(name);

function projectList(spec: ConfigSpec, use: SchemaUse) {
  return entryList(
    use,
    "Settings for one GitLab project or a glob of them.",
    {
      project: z
        .union([
          z.int().positive(),
          z.string().regex(PROJECT_SELECTOR, {
            error:
              'expected a numeric id, a full path such as "acme/api", or a glob over a group\'s projects such as "acme/*" or "acme/**"',
          }),
        ])
        .describe(
          'The project: its numeric id, its full path ("acme/platform/api"), or a glob over a group\'s projects: "acme/*" (the group\'s own), "acme/**" (its subgroups\' too), "acme/platform/svc-*".',
        ),
      exclude: z
        .array(
          z.string().regex(PROJECT_SELECTOR, {
            error: 'expected a full path or a glob such as "acme/legacy-*"',
          }),
        )
        .optional()
        .describe("Projects (globs allowed) that a glob must not select, by full path."),
      target: targetReference("gitlab"),
      profiles: z
        .array(targetName)
        .optional()
        .describe(
          "Project profiles (project_profiles) applied in order, after project_defaults and before this entry's own settings.",
        ),
      ...settingsShape(spec, "project"),
    },
    ["exclude"],
    (entry, context) => {
      if (entry.exclude === undefined) return;
      const selected = String(entry.project);
      if (!isGlob(selected)) {
        context.addIssue({
          code: "custom",
          path: ["exclude"],
          message: `exclude is only for globs; ${selected} names one project`,
        });
        return;
      }
      const { root } = projectGlobParts(selected);
      for (const [index, excluded] of entry.exclude.entries()) {
        if (!excluded.toLowerCase().startsWith(`${root.toLowerCase()}/`)) {
          context.addIssue({
            code: "custom",
            path: ["exclude", index],
            message: `exclude must name projects of ${root}, the group the glob lists`,
          });
        }
      }
    },
  );
}

function sectionSchema(section: SectionSpec): z.ZodType {
  const schema = section.list ? z.array(section.entry) : section.entry;
  return schema.optional().describe(section.description);
}

/** Sections at the top level, and those grouped under one key (`audits: {gists, migrations}`). */
function sectionsShape(spec: ConfigSpec): z.ZodRawShape {
  const shape: Record<string, z.ZodType> = {};
  const groups = new Map<string, Record<string, z.ZodType>>();
  for (const section of spec.sections) {
    const [first, second] = section.at;
    if (second === undefined) {
      shape[first] = sectionSchema(section);
      continue;
    }
    const group = groups.get(first) ?? {};
    group[second] = sectionSchema(section);
    groups.set(first, group);
  }
  for (const [key, members] of groups) {
    shape[key] = closed(members)
      .optional()
      .describe(GROUP_DESCRIPTIONS[key] ?? key);
  }
  return shape;
}

const removalLimit = closed({
  share: z
    .number()
    .min(0)
    .max(100)
    .optional()
    .describe(
      "The percentage of an authoritative collection's live members (a repository's hooks, collaborators or teams, a team's members …) one plan may remove; over it, all of that collection's removals are held. Default 25.",
    ),
  floor: z
    .int()
    .nonnegative()
    .optional()
    .describe("Removals always allowed in one collection, whatever its size. Default 2."),
  deletes: z
    .int()
    .nonnegative()
    .optional()
    .describe(
      "The most deletes one plan may apply, all kinds together; over it, every delete is held. Default: no limit.",
    ),
});

const GROUP_DESCRIPTIONS: Record<string, string> = {
  audits: "Reports that change nothing.",
};

const built: Record<SchemaUse, WeakMap<ConfigSpec, z.ZodType>> = {
  describe: new WeakMap(),
  check: new WeakMap(),
  count: new WeakMap(),
};

/** The schema of one desired-state file with the kinds' keys and sections. */
export function fileSchema(spec: ConfigSpec, use: SchemaUse): z.ZodType {
  const cached = built[use].get(spec);
  if (cached !== undefined) return cached;
  const settings = closed(settingsShape(spec, "repository"));
  const projectSettings = closed(settingsShape(spec, "project"));
  const schema = closed({
    version: z.literal(1).describe("The format version; always 1."),
    targets: z
      .record(targetName, target.describe("A connection to one service."))
      .optional()
      .describe(
        'Named connections. Without any, forgeplan uses "github" (https://api.github.com, GITHUB_TOKEN) and "gitlab" (https://gitlab.com, GITLAB_TOKEN).',
      ),
    defaults: settings.optional().describe("Settings applied to every repository entry, first."),
    profiles: z
      .record(targetName, settings.describe("A named set of repository settings."))
      .optional()
      .describe("Named settings that repository entries apply with profiles:, after defaults."),
    repositories: repositoryList(spec, use)
      .optional()
      .describe("Repository settings, per repository or glob of repositories."),
    project_defaults: projectSettings
      .optional()
      .describe("Settings applied to every project entry, first."),
    project_profiles: z
      .record(targetName, projectSettings.describe("A named set of project settings."))
      .optional()
      .describe(
        "Named settings that project entries apply with profiles:, after project_defaults.",
      ),
    projects: projectList(spec, use)
      .optional()
      .describe("GitLab project settings, per project or glob of a group's projects."),
    removal_limit: removalLimit
      .optional()
      .describe(
        "What one plan may remove before its removals are held (raised for one run with --removal-limit and --delete-limit).",
      ),
    ...sectionsShape(spec),
  });
  built[use].set(spec, schema);
  return schema;
}

/** A file that passed the schema: the frame's keys typed, the kinds' values as written. */
export interface ConfigFile {
  version: 1;
  targets?: Record<
    string,
    {
      type: TargetTypeName;
      base_url?: string;
      token_env?: string;
      app_id?: number | string;
      private_key_env?: string;
      private_key_file?: string;
      installation_id?: number | string;
      limits?: "gitlab.com" | "none";
    }
  >;
  defaults?: Record<string, unknown>;
  profiles?: Record<string, Record<string, unknown>>;
  removal_limit?: { share?: number; floor?: number; deletes?: number };
  repositories?: Array<
    {
      name: string;
      exclude?: string[];
      where?: { properties: Record<string, string | boolean | string[]> };
      target?: string;
      owner_type?: "organization" | "user";
      profiles?: string[];
    } & Record<string, unknown>
  >;
  project_defaults?: Record<string, unknown>;
  project_profiles?: Record<string, Record<string, unknown>>;
  projects?: Array<
    {
      project: string | number;
      exclude?: string[];
      target?: string;
      profiles?: string[];
    } & Record<string, unknown>
  >;
  [section: string]: unknown;
}
