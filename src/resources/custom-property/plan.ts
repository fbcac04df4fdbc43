import { type Change, newChange, type PlannedRequest } from "../../core/plan.js";
import {
  changeError,
  type ReadResult,
  repoPath,
  type RepoRef,
  type ResourceReader,
} from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { PlanOptions } from "../kind.js";
import {
  DEFINITION_SHAPE,
  desiredValue,
  type ReadDefinition,
  storedValue,
  VALUES_SHAPE,
} from "./canonical.js";
import { KIND, schemaPath } from "./definitions.js";
import { type PropertyValues, valueProblem, type WrittenValue } from "./settings.js";

/**
 * A repository's custom property values: each property written is one change, compared with the
 * organization's definition of it (names in any case, values in their case, a multi_select as a
 * set, true_false as the text GitHub stores), and written with
 * `PATCH /orgs/{org}/properties/values`. That request takes up to 30 repositories ("A maximum of
 * 30 repositories can be updated in a single request", the spec), so each is marked `batch`: apply
 * sends the repositories given the same value together (src/engine/batched-writes.ts). A value the
 * definition does not allow, or a property the organization does not define, is an error of the
 * plan naming what is allowed.
 */

/** "A maximum of 30 repositories can be updated in a single request" (the spec, PATCH values). */
export const MAX_REPOSITORIES_PER_PATCH = 30;

const valuesPath = (org: string) => `/orgs/${encodeURIComponent(org)}/properties/values`;

type Schema = ReadResult<readonly ReadDefinition[]>;

/**
 * The organization's definitions, read once per plan however many repositories ask: a plan's
 * options are its own, so the plan that verifies an apply reads them again.
 */
const schemas = new WeakMap<PlanOptions, Map<string, Promise<Schema>>>();

export function readSchema(
  reader: ResourceReader,
  org: string,
  options?: PlanOptions,
): Promise<Schema> {
  const read = () => reader.list(schemaPath(org), undefined, DEFINITION_SHAPE);
  if (options === undefined) return read();
  let byOrg = schemas.get(options);
  if (byOrg === undefined) {
    byOrg = new Map();
    schemas.set(options, byOrg);
  }
  const key = `${reader.target}\u0000${org.toLowerCase()}`;
  let found = byOrg.get(key);
  if (found === undefined) {
    found = read();
    byOrg.set(key, found);
  }
  return found;
}

/** Why a written value cannot be set, or undefined. */
function writtenProblem(definition: ReadDefinition, value: WrittenValue): string | undefined {
  const name = definition.property_name;
  if (value === null) {
    // A required property falls back to its default: it has a value whatever is sent.
    return definition.required === true
      ? `${name} is required in the organization: it cannot be unset (write its default, ${JSON.stringify(definition.default_value)}, instead)`
      : undefined;
  }
  const problem = valueProblem(definition.value_type, definition.allowed_values ?? null, value);
  return problem === undefined ? undefined : `${name} (${definition.value_type}): ${problem}`;
}

/** The request that sets one value of one repository; apply joins those of one value. */
function patch(at: RepoRef, property: string, value: string | string[] | null): PlannedRequest {
  return {
    method: "PATCH",
    path: valuesPath(at.owner),
    body: { repository_names: [at.name], properties: [{ property_name: property, value }] },
    batch: { list: "repository_names", max: MAX_REPOSITORIES_PER_PATCH },
  };
}

const WHERE_NOTE =
  "a `where: {properties}` selection sees this value only after apply: it matches the live values this plan read";

export async function planValues(input: {
  reader: ResourceReader;
  at: RepoRef;
  value: PropertyValues;
  options?: PlanOptions;
}): Promise<Change[]> {
  const { reader, at, value, options } = input;
  const scope = `${at.owner}/${at.name}`;
  const names = Object.keys(value);
  if (names.length === 0) return [];
  const named = (name: string) => newChange(reader.target, scope, KIND, name);
  const schema = await readSchema(reader, at.owner, options);
  if (schema.kind !== "found") {
    const error =
      schema.kind === "error"
        ? schema.error
        : changeError(
            `${at.owner} has no custom properties: they belong to organizations (or ${reader.credential} cannot see them)`,
            "GET",
            schemaPath(at.owner),
            404,
          );
    return names.map((name) => ({ ...named(name), error }));
  }
  const path = `${repoPath(at)}/properties/values`;
  const live = await reader.getOrAbsent(path, {
    name: "a list of custom property values",
    schema: VALUES_SHAPE.schema.array(),
  });
  if (live.kind !== "found") {
    const error =
      live.kind === "error"
        ? live.error
        : changeError(`repository ${scope} was not found`, "GET", path, 404);
    return names.map((name) => ({ ...named(name), error }));
  }
  const definitions = new Map(schema.data.map((item) => [item.property_name.toLowerCase(), item]));
  const current = new Map(live.data.map((item) => [item.property_name.toLowerCase(), item.value]));
  return names.map((name): Change => {
    const change = named(name);
    const written = value[name]!;
    const definition = definitions.get(name.toLowerCase());
    if (definition === undefined) {
      const defined = schema.data.map((item) => item.property_name).join(", ") || "none";
      return {
        ...change,
        error: {
          ...changeError(`${at.owner} defines no custom property ${name} (defined: ${defined})`),
          field: [name],
        },
      };
    }
    const problem = writtenProblem(definition, written);
    if (problem !== undefined)
      return { ...change, error: { ...changeError(problem), field: [name] } };
    const type = definition.value_type;
    const liveValue = current.get(name.toLowerCase()) ?? null;
    const before = liveValue === null ? null : storedValue(type, liveValue);
    const after = desiredValue(type, written);
    const diff = diffValues({ value: before }, { value: after });
    const planned = { ...change, live_fingerprint: fingerprint(before) };
    if (diff.length === 0) return planned;
    return {
      ...planned,
      action: "update",
      diff: [{ path: "value", before, after }],
      requests: [patch(at, definition.property_name, after)],
      notes: [WHERE_NOTE],
    };
  });
}

/** What a repository created by this plan is given with its creation (`POST /orgs/{org}/repos`). */
export function creationValues(value: PropertyValues): Record<string, unknown> | undefined {
  const given = Object.entries(value).filter(([, written]) => written !== null);
  if (given.length === 0) return undefined;
  return {
    custom_properties: Object.fromEntries(
      given.map(([name, written]) => [
        name,
        typeof written === "boolean" ? String(written) : written,
      ]),
    ),
  };
}
