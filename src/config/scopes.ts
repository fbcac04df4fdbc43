import type { SelectingScope, TargetType } from "./spec.js";

/**
 * Where each selecting scope sits in a configuration file: its list of entries, the key that names
 * what an entry selects, its defaults and profiles, and the family of target it is planned against.
 * The loader, the schema, `validate --print` and the engine read these, so a scope is described once.
 */
export interface ScopeFrame {
  scope: SelectingScope;
  /** The file's list of entries. */
  list: "repositories" | "projects";
  /** The entry's key that names the repository or project (or a glob of them). */
  nameKey: "name" | "project";
  /** The settings every entry of the scope starts from. */
  defaults: "defaults" | "project_defaults";
  /** Named settings entries apply with `profiles:`. */
  profiles: "profiles" | "project_profiles";
  targetType: TargetType;
  /** How `validate` counts entries and messages name one. */
  noun: readonly [string, string];
}

export const SCOPE_FRAMES: Readonly<Record<SelectingScope, ScopeFrame>> = {
  repository: {
    scope: "repository",
    list: "repositories",
    nameKey: "name",
    defaults: "defaults",
    profiles: "profiles",
    targetType: "github",
    noun: ["repository entry", "repository entries"],
  },
  project: {
    scope: "project",
    list: "projects",
    nameKey: "project",
    defaults: "project_defaults",
    profiles: "project_profiles",
    targetType: "gitlab",
    noun: ["project entry", "project entries"],
  },
};

export const SELECTING_SCOPES: readonly SelectingScope[] = ["repository", "project"];
