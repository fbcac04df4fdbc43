/**
 * What the resource kinds contribute to the configuration file. The loader knows the frame (version,
 * targets, defaults, profiles, repository entries and their selectors, sections and targets); every
 * key a kind is configured by comes from the kind, through a ConfigSpec the registry assembles
 * (src/resources/index.ts). Nothing here names a kind.
 */
import type * as z from "zod";
import type { Path } from "./errors.js";

/** A rule broken at `path`, relative to the value the rule was checked on. */
export interface RuleProblem {
  path: Path;
  message: string;
  /** Another place the problem involves (relative like `path`): the message names its line. */
  sameAs?: Path;
}

/**
 * The scopes whose entries select places by name or glob, with defaults and profiles under them:
 * repositories (GitHub) and projects (GitLab). Organizations and groups are sections composed from the
 * kinds' parts (src/resources/owners-section.ts).
 */
export type SelectingScope = "repository" | "project";

/** The family of service a target speaks to: GitHub's repository paths or GitLab's `/api/v4`. */
export type TargetType = "github" | "gitlab";

/** What a rule may know about the entry a setting belongs to. */
export interface EntryFacts {
  ownerType?: "organization" | "user";
  /** The entry's name is a glob: it selects repositories rather than naming one. */
  glob?: boolean;
  /**
   * Every setting of the entry, by key, as its defaults, profiles and own keys make it: for a rule
   * that involves another kind's setting (a branch a ruleset replaces must not also be protected).
   */
  settings?: Readonly<Record<string, unknown>>;
}

/**
 * Something a setting or section entry defines that must be defined once: two entries that name one
 * repository (or two section entries) must not both define it. `id` is unique within its scope.
 */
export interface Defined {
  id: string;
  /** Where it is written, relative to the value. */
  path: Path;
  /**
   * Further places of the same resource, for keys that set one thing together (a commit-message
   * title and its message): compared, kept and dropped with `path`, never apart.
   */
  also?: Path[];
  /** For messages: "the protection of branch main". */
  what: string;
}

/** One block of `validate --print`: a resource and where its values sit. */
export interface PrintBlock {
  kind: string;
  name: string;
  /** Relative to the value; its leaves are printed with their file:line. */
  path: Path;
  /** Rows for values that are not written, with what they default to. */
  defaults?: ReadonlyArray<readonly [string, unknown]>;
  /** Rows that say what the block means instead of its leaves (a collection's mode). */
  fixed?: ReadonlyArray<readonly [string, unknown]>;
  /** Rows that say what the block means, before its leaves (a clean-up's "must be absent"). */
  means?: ReadonlyArray<readonly [string, unknown]>;
}

/**
 * A key of the repository settings (in `defaults`, `profiles` and repository entries) or of another
 * scope's entries. Its value is the type its schema describes (`z.output<S>`): the loader checks
 * what is written against the schema and hands on what was written — no schema here transforms or
 * defaults a value, so what was written is what the schema's type says — with its secret references
 * wrapped (`secretReference`, src/config/fields.ts).
 */
export interface SettingSpec<S extends z.ZodType = z.ZodType> {
  key: string;
  /** The value's schema (with its descriptions and the rules that need only the value). */
  schema: S;
  /**
   * Rules over the value that defaults, profiles and an entry make together (relative paths). Rules
   * that need only one written value belong in the schema, where every layer is checked.
   */
  rules?(value: z.output<S>, entry: EntryFacts): RuleProblem[];
  /** What the value defines, for the once-only check across entries of one repository. */
  defines(value: z.output<S>): Defined[];
  print(value: z.output<S>): PrintBlock[];
  /**
   * Where the value holds secret references (exactly `${NAME}`, never expanded, wrapped in a
   * Secret), relative to the value, `*` for any one key or index (`["actions", "*"]`); a key named
   * `secret` or `authorization_header` is one wherever it is.
   */
  secrets?: readonly Path[];
  /**
   * Where the value is stored in plain text on the service, for anyone who can read it (an Actions
   * variable): a `${NAME}` there must be marked `:public`, since every other reference is treated
   * as sensitive and would be published by the write. Same notation as `secrets`.
   */
  plain?: readonly Path[];
}

/** A section of the file owned by one kind: `projects`, `groups`, `audits.gists` … */
export interface SectionSpec<S extends z.ZodType = z.ZodType> {
  /** Where it sits in the file: ["projects"] or ["audits", "gists"]. */
  at: readonly [string] | readonly [string, string];
  /**
   * One entry's schema, whose type is the entry's (as a setting's is its value's); it has an
   * optional `target` key (see targetReference).
   */
  entry: S;
  /** A list of entries, or one entry. */
  list: boolean;
  description: string;
  /** The family of target its entries use. */
  targetType: TargetType;
  /** How `validate` counts its entries: ["project", "projects"]. */
  noun: readonly [string, string];
  defines(entry: z.output<S>, target: string): Defined[];
  /** The scope its resources are addressed under (and sharded by). */
  scope(entry: z.output<S>): string;
  print(entry: z.output<S>): PrintBlock[];
  /** Where an entry holds secret references, relative to the entry (see SettingSpec.secrets). */
  secrets?: readonly Path[];
  /** Where an entry's values are stored in plain text (see SettingSpec.plain). */
  plain?: readonly Path[];
}

export interface ConfigSpec {
  /** The keys of each selecting scope's entries (and of its defaults and profiles). */
  settings: Readonly<Record<SelectingScope, readonly SettingSpec[]>>;
  sections: readonly SectionSpec[];
}

/** A setting, its value typed by its schema (SettingSpec). */
export function defineSetting<S extends z.ZodType>(setting: SettingSpec<S>): SettingSpec<S> {
  return setting;
}

/** A section, its entry typed by its schema (SectionSpec). */
export function defineSection<S extends z.ZodType>(section: SectionSpec<S>): SectionSpec<S> {
  return section;
}
