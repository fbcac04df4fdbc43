/**
 * The resolved desired state: what the planner works from. Files are merged, targets resolved,
 * `${VAR}` expanded and secrets wrapped; repository entries keep their layers (profiles, then their
 * own keys) so every entry that selects one repository can be merged by the one merge policy, with
 * the defaults under them once. Values are the kinds' own, as written; every entry keeps the place
 * it was written so plans and errors can point back to it.
 */
import type { Secret } from "../core/secret.js";
import type { Origin } from "./errors.js";
import type { Layer } from "./merge.js";
import type { SourceFile } from "./source.js";
import type { SelectingScope, TargetType } from "./spec.js";

export type { ConfigError, Origin } from "./errors.js";

export interface TargetConfig {
  name: string;
  type: TargetType;
  /** Without a trailing slash. */
  baseUrl: string;
  tokenEnv: string;
  /** Read from `tokenEnv` at load time when set; absent is not a load error (validate needs no token). */
  token?: Secret;
  /** Set when the target authenticates as a GitHub App installation rather than with a token. */
  app?: AppAuthConfig;
  /** A GitLab target's `limits`, when written: otherwise its host decides (src/forge/gitlab-limits.ts). */
  limits?: "gitlab.com" | "none";
}

export interface AppAuthConfig {
  appId: number;
  installationId?: number;
  /**
   * Where the private key is: an environment variable (read at load time, like tokens), or a file
   * (relative to the working directory, read when connecting).
   */
  privateKey: { env: string; value?: Secret } | { file: string };
}

/**
 * What an entry selects. A name is `owner/repo` on GitHub; on GitLab `owner` is the namespace's full
 * path (`acme/platform`) and `repo` the project's path, or `owner` is "" and `repo` the project's
 * numeric id as written.
 */
export type Selector =
  | { kind: "name"; owner: string; repo: string }
  /**
   * `pattern` and `exclude` are globs over the name below `owner` (a repository's name; a project's
   * path below the group `owner`, where `*` stays within one level and `**` crosses subgroups);
   * case-insensitive. `properties` (repositories): custom property names (lower-cased) and the
   * values any of which selects.
   */
  | {
      kind: "glob";
      owner: string;
      pattern: string;
      exclude: string[];
      properties?: Record<string, string[]>;
    };

/** One source of settings: defaults, a profile or an entry's own keys, and where it was written. */
export type SettingsLayer = Layer<SourceFile>;

/** An entry of `repositories` or `projects`: what it selects and the settings it layers. */
export interface ScopedEntry {
  scope: SelectingScope;
  target: string;
  origin: Origin;
  selector: Selector;
  ownerType?: "organization" | "user";
  /** Its profiles in the order listed, then its own keys. */
  layers: SettingsLayer[];
  /** The defaults and its layers merged: what this entry alone asks for, by settings key. */
  settings: Record<string, unknown>;
}

/** One entry of a kind's section (`projects`, `audits.gists` …), as written. */
export interface SectionEntry {
  /** The section's path joined with dots: "projects", "audits.gists". */
  section: string;
  target: string;
  origin: Origin;
  value: Record<string, unknown>;
  layer: SettingsLayer;
}

export interface DesiredState {
  targets: TargetConfig[];
  /** The defaults of every file, in file order: the bottom layers of every repository. */
  defaults: SettingsLayer[];
  repositories: ScopedEntry[];
  /** `project_defaults` of every file, in file order: the bottom layers of every project. */
  projectDefaults: SettingsLayer[];
  projects: ScopedEntry[];
  sections: SectionEntry[];
  /** What one plan may remove (`removal_limit`), as the file that writes it says. */
  removalLimit?: { share?: number; floor?: number; deletes?: number };
  /** The files loaded, in merge order, as the errors name them. */
  files: string[];
}

/** A selecting scope's entries and the defaults under them. */
export function scopeState(
  state: Pick<DesiredState, "defaults" | "repositories" | "projectDefaults" | "projects">,
  scope: SelectingScope,
): { defaults: SettingsLayer[]; entries: ScopedEntry[] } {
  return scope === "repository"
    ? { defaults: state.defaults, entries: state.repositories }
    : { defaults: state.projectDefaults, entries: state.projects };
}

/** The names of the targets some entry of the state is planned against. */
export function usedTargets(state: DesiredState): Set<string> {
  return new Set([
    ...state.repositories.map((entry) => entry.target),
    ...state.projects.map((entry) => entry.target),
    ...state.sections.map((entry) => entry.target),
  ]);
}
