/**
 * The desired-state loader: YAML files → validated, merged DesiredState, or positioned errors. What
 * the kinds are configured by comes in through a ConfigSpec (the registry's).
 */
export { formatConfigError, parsePath } from "./errors.js";
export { globToRegExp, matchesGlob, selectsRepository } from "./glob.js";
export { configJsonSchema, configJsonSchemaText } from "./json-schema.js";
export { DEFAULT_CONFIG, type LoadOptions, type LoadResult, loadConfig } from "./load.js";
export type * from "./model.js";
export type * from "./spec.js";
