import { mustFind, type ResourceReader } from "../context.js";
import {
  INSTANCE_PATH,
  listInstanceVariables,
  listVariables,
  type ReadVariable,
} from "./canonical.js";
import type { WrittenGitlabInstanceVariables, WrittenGitlabVariables } from "./settings.js";
import { nameOf } from "./settings.js";

/**
 * The environment variable export names for a value: the place, the key and a scope other than
 * `*`, upper-cased with `_` for anything else (`acme/api`'s `DEPLOY_TOKEN@production` is
 * `${ACME_API__DEPLOY_TOKEN__PRODUCTION}`), so one export of many projects gives each value a name
 * of its own. Export never writes a value: the file needs those variables set to plan as no change.
 */
export function placeholderOf(place: string, key: string, scope: string): string {
  const word = (text: string) =>
    text
      .toUpperCase()
      .replaceAll(/[^A-Z0-9]+/g, "_")
      .replaceAll(/^_+|_+$/g, "");
  const parts = [word(place), key, ...(scope === "*" ? [] : [word(scope) || "SCOPE"])];
  const name = parts.join("__");
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/**
 * A project's or a group's variables as they are live, additive: each value as a placeholder,
 * every flag as GitLab has it (a hidden variable as `masked_and_hidden: true`).
 */
export async function exportVariables(
  reader: ResourceReader,
  path: string,
  place: string,
): Promise<WrittenGitlabVariables | undefined> {
  return exported(mustFind(await listVariables(reader, path), path), place);
}

/**
 * The instance's variables, as a place's are, their placeholders named after `INSTANCE`
 * (`${INSTANCE__DEPLOY_TOKEN}`); never hidden, so never `masked_and_hidden`.
 */
export async function exportInstanceVariables(
  reader: ResourceReader,
): Promise<WrittenGitlabInstanceVariables | undefined> {
  return exported(mustFind(await listInstanceVariables(reader), INSTANCE_PATH), "instance");
}

function exported(
  live: readonly ReadVariable[],
  place: string,
): WrittenGitlabVariables | undefined {
  if (live.length === 0) return undefined;
  const taken = new Set<string>();
  const items: NonNullable<WrittenGitlabVariables["items"]> = {};
  for (const variable of live) {
    let placeholder = placeholderOf(place, variable.key, variable.environment_scope);
    // Scopes that differ only in what `_` stands for must not share a variable.
    for (let suffix = 2; taken.has(placeholder); suffix++) {
      placeholder = `${placeholderOf(place, variable.key, variable.environment_scope)}_${suffix}`;
    }
    taken.add(placeholder);
    const hidden = variable.hidden === true;
    items[nameOf(variable.key, variable.environment_scope)] = {
      value: `\${${placeholder}}`,
      variable_type: variable.variable_type,
      protected: variable.protected,
      ...(hidden ? { masked_and_hidden: true } : { masked: variable.masked }),
      raw: variable.raw,
      description: variable.description,
    };
  }
  return { mode: "additive", items };
}
