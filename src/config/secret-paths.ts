import type { Path } from "./errors.js";
import { SECRET_KEYS } from "./interpolate.js";
import { SCOPE_FRAMES, SELECTING_SCOPES } from "./scopes.js";
import type { ConfigSpec } from "./spec.js";

/** Whether the value at a path of a file (from its root) is a secret reference. */
export type SecretAt = (path: Path) => boolean;

/** Stands for any one key or index in a secret path. */
export const ANY = "*";

/**
 * Where the file holds secret references: under a secret key (`secret`, `authorization_header`)
 * wherever it is, and where a kind says its value holds them (`secrets.actions.NAME`), in every
 * place the frame puts that kind's value — defaults, profiles, repository and project entries, section
 * entries.
 * Such a value must be exactly `${NAME}`: it is never expanded into a plain string, never quoted in
 * an error, and the loader wraps it in a Secret.
 */
export function secretMatcher(spec: ConfigSpec): SecretAt {
  const matches = kindPaths(spec, (part) => part.secrets);
  return (path) => {
    const key = path[path.length - 1];
    if (typeof key === "string" && SECRET_KEYS.has(key)) return true;
    return matches(path);
  };
}

/**
 * Where the file holds values the service stores in plain text (`variables.items.NAME`): a
 * reference there that is not marked `:public` is refused (see SettingSpec.plain).
 */
export function plainMatcher(spec: ConfigSpec): SecretAt {
  return kindPaths(spec, (part) => part.plain);
}

/** Whether a path of a file is one of the paths the kinds name (relative to their values). */
function kindPaths(
  spec: ConfigSpec,
  named: (part: {
    secrets?: readonly Path[];
    plain?: readonly Path[];
  }) => readonly Path[] | undefined,
): SecretAt {
  const patterns: Path[] = [];
  for (const scope of SELECTING_SCOPES) {
    const frame = SCOPE_FRAMES[scope];
    for (const setting of spec.settings[scope]) {
      for (const relative of named(setting) ?? []) {
        patterns.push([frame.defaults, setting.key, ...relative]);
        patterns.push([frame.profiles, ANY, setting.key, ...relative]);
        patterns.push([frame.list, ANY, setting.key, ...relative]);
      }
    }
  }
  for (const section of spec.sections) {
    for (const relative of named(section) ?? []) {
      patterns.push([...section.at, ...(section.list ? [ANY] : []), ...relative]);
    }
  }
  return (path) =>
    patterns.some(
      (pattern) =>
        pattern.length === path.length &&
        pattern.every((segment, index) => segment === ANY || segment === path[index]),
    );
}
