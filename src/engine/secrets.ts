import type { DesiredState } from "../config/model.js";
import type { SecretRef } from "../core/plan.js";
import { isPlainObject } from "../core/plain.js";
import { isSecret, type Secret } from "../core/secret.js";

function isSecretRef(value: unknown): value is SecretRef {
  return (
    value !== null &&
    typeof value === "object" &&
    Object.keys(value).length === 1 &&
    typeof (value as SecretRef).$secret === "string"
  );
}

/** Finds secret references in a planned body. */
function secretRefsIn(value: unknown): string[] {
  if (isSecretRef(value)) return [value.$secret];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(secretRefsIn);
}

/**
 * The secrets a plan's requests need that neither the desired state nor the environment holds, so
 * apply refuses before it sends anything rather than fail half-way (a saved plan applied where a
 * variable is not set).
 */
export function missingSecrets(
  bodies: readonly unknown[],
  secrets: ReadonlyMap<string, Secret>,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const names = new Set(bodies.flatMap(secretRefsIn));
  return [...names].filter((name) => !secrets.has(name) && env[name] === undefined).sort();
}

/**
 * Replaces secret references with their values at the moment of sending. The values come from the
 * loaded desired state (its Secret objects) or, for a saved plan, the environment variable named.
 */
export function resolveSecrets(
  value: unknown,
  secrets: ReadonlyMap<string, Secret>,
  env: Readonly<Record<string, string | undefined>>,
): unknown {
  if (isSecretRef(value)) {
    const resolved = secrets.get(value.$secret)?.reveal() ?? env[value.$secret];
    if (resolved === undefined) throw new Error(`secret ${value.$secret} is not set`);
    return resolved;
  }
  if (Array.isArray(value)) return value.map((item) => resolveSecrets(item, secrets, env));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, resolveSecrets(inner, secrets, env)]),
    );
  }
  return value;
}

/** Every secret the desired state holds (whichever kind's), by the variable it came from. */
export function collectSecrets(state: DesiredState): Map<string, Secret> {
  const secrets = new Map<string, Secret>();
  const walk = (value: unknown): void => {
    if (isSecret(value)) secrets.set(value.source, value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isPlainObject(value)) Object.values(value).forEach(walk);
  };
  walk(state.defaults.map((layer) => layer.value));
  walk(state.repositories.map((entry) => entry.layers.map((layer) => layer.value)));
  walk(state.sections.map((entry) => entry.value));
  return secrets;
}
