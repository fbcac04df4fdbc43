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

export type { ConfigError, Origin } from "./errors.js";

export interface TargetConfig {
  name: string;
  type: "repository" | "planning";
  /** Without a trailing slash. */
  baseUrl: string;
  tokenEnv: string;
  /** Read from `tokenEnv` at load time when set; absent is not a load error (validate needs no token). */
  token?: Secret;
  /** Set when the target authenticates as a GitHub App installation rather than with a token. */
  app?: AppAuthConfig;
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

export type RepositorySelector =
  | { kind: "name"; owner: string; repo: string }
  /**
   * `pattern` and `exclude` are globs over the repository name (owner removed); case-insensitive.
   * `properties`: custom property names (lower-cased) and the values any of which selects.
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

export interface RepositoryEntry {
  target: string;
  origin: Origin;
  selector: RepositorySelector;
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
  repositories: RepositoryEntry[];
  sections: SectionEntry[];
  /** What one plan may remove (`removal_limit`), as the file that writes it says. */
  removalLimit?: { share?: number; floor?: number; deletes?: number };
  /** The files loaded, in merge order, as the errors name them. */
  files: string[];
}
