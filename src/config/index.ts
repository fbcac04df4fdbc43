/**
 * The desired-state loader: YAML files → validated, merged DesiredState, or positioned errors.
 */
import type { ConfigError } from "./errors.js";
import { type LoadOptions, loadConfig } from "./load.js";
import type { DesiredState } from "./model.js";

export { formatConfigError } from "./errors.js";
export { globToRegExp, matchesGlob, selectsRepository } from "./glob.js";
export { configJsonSchema, configJsonSchemaText } from "./json-schema.js";
export { DEFAULT_CONFIG, type LoadOptions, loadConfig } from "./load.js";
export type * from "./model.js";

/** Loads files and directories (default forgeplan.yaml in cwd), in order, into one desired state. */
export function loadDesiredState(
  paths: string[],
  options: LoadOptions,
): { ok: true; state: DesiredState } | { ok: false; errors: ConfigError[] } {
  const result = loadConfig(paths, options);
  return result.ok ? { ok: true, state: result.state } : result;
}
