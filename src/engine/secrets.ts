import type { DesiredState } from "../config/model.js";
import type { KeyIdRef, SealedRef, SecretRef } from "../core/plan.js";
import { isPlainObject } from "../core/plain.js";
import { isSecret, type Secret } from "../core/secret.js";
import { type PublicKey, seal } from "./sealing.js";
import { envValue } from "../config/env.js";

function isSecretRef(value: unknown): value is SecretRef {
  return (
    isPlainObject(value) &&
    Object.keys(value).length === 1 &&
    typeof (value as Partial<SecretRef>).$secret === "string"
  );
}

function isSealedRef(value: unknown): value is SealedRef {
  if (!isPlainObject(value) || Object.keys(value).length !== 1) return false;
  const sealed = (value as Partial<SealedRef>).$sealed;
  return (
    isPlainObject(sealed) && typeof sealed.secret === "string" && typeof sealed.key === "string"
  );
}

function isKeyIdRef(value: unknown): value is KeyIdRef {
  return (
    isPlainObject(value) &&
    Object.keys(value).length === 1 &&
    typeof (value as Partial<KeyIdRef>).$key_id === "string"
  );
}

/** The variables of the secret references in a planned body, sealed ones included. */
function secretRefsIn(value: unknown): string[] {
  if (isSecretRef(value)) return [value.$secret];
  if (isSealedRef(value)) return [value.$sealed.secret];
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
  return [...names]
    .filter((name) => !secrets.has(name) && envValue(env, name) === undefined)
    .sort();
}

/** What resolving a body's placeholders draws on, at the moment of sending it. */
export interface Resolution {
  /** The loaded desired state's secrets, by the variable they came from. */
  secrets: ReadonlyMap<string, Secret>;
  /** For a saved plan: the environment, whose variable a reference names. */
  env: Readonly<Record<string, string | undefined>>;
  /** The public key `GET path` answers, for sealed secrets. */
  publicKey(path: string): Promise<PublicKey>;
}

function secretValue(name: string, resolution: Resolution): string {
  const resolved = resolution.secrets.get(name)?.reveal() ?? envValue(resolution.env, name);
  if (resolved === undefined) throw new Error(`secret ${name} is not set`);
  return resolved;
}

/**
 * Replaces the placeholders of a planned body with what they stand for, just before it is sent:
 * a secret reference with the variable's value, a sealed one with the value sealed under the public
 * key it names, a key id reference with that key's id.
 */
export async function resolveSecrets(value: unknown, resolution: Resolution): Promise<unknown> {
  if (isSecretRef(value)) return secretValue(value.$secret, resolution);
  if (isSealedRef(value)) {
    const { key } = await resolution.publicKey(value.$sealed.key);
    return seal(secretValue(value.$sealed.secret, resolution), key);
  }
  if (isKeyIdRef(value)) return (await resolution.publicKey(value.$key_id)).key_id;
  if (Array.isArray(value)) {
    return Promise.all(value.map((item) => resolveSecrets(item, resolution)));
  }
  if (value !== null && typeof value === "object") {
    const entries = await Promise.all(
      Object.entries(value).map(
        async ([key, inner]) => [key, await resolveSecrets(inner, resolution)] as const,
      ),
    );
    return Object.fromEntries(entries);
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
