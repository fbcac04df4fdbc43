import {
  configJsonSchemaText,
  type DesiredState,
  type LoadOptions,
  type LoadResult,
  loadConfig,
} from "../config/index.js";
import { scopeState } from "../config/model.js";
import { printDesiredState } from "../config/print.js";
import { SCOPE_FRAMES, SELECTING_SCOPES } from "../config/scopes.js";
import { configSpec } from "../resources/index.js";

/**
 * The desired state as this forgeplan's kinds define it: the loader, `validate --print` and the
 * JSON Schema, each given the registry's config spec.
 */
export function loadDesiredState(
  paths: readonly string[],
  options: Omit<LoadOptions, "spec">,
): LoadResult {
  return loadConfig(paths, { ...options, spec: configSpec });
}

export function printState(state: DesiredState): string {
  return printDesiredState(state, configSpec);
}

export function schemaText(): string {
  return configJsonSchemaText(configSpec);
}

/** How many entries each section has, in words: "1 repository entry, 2 project entries, 0 audits". */
export function describeCounts(state: DesiredState): string {
  const counts = new Map<string, [number, string, string]>(
    SELECTING_SCOPES.map((scope) => {
      const [one, many] = SCOPE_FRAMES[scope].noun;
      return [one, [scopeState(state, scope).entries.length, one, many]];
    }),
  );
  for (const section of configSpec.sections) {
    const [one, many] = section.noun;
    const count = state.sections.filter((entry) => entry.section === section.at.join(".")).length;
    const known = counts.get(one);
    counts.set(one, [(known?.[0] ?? 0) + count, one, many]);
  }
  return [...counts.values()]
    .map(([count, one, many]) => `${count} ${count === 1 ? one : many}`)
    .join(", ");
}
