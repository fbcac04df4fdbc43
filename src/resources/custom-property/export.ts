import { mustFind, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { DEFINITION_SHAPE, liveDefinition, VALUES_SHAPE } from "./canonical.js";
import { schemaPath } from "./definitions.js";
import type { Definition, Definitions, PropertyValues } from "./settings.js";
import { readSchema } from "./plan.js";

/** The organization's custom properties as they are live, additive, each with what is not default. */
export async function exportDefinitions(
  reader: ResourceReader,
  org: string,
): Promise<Definitions | undefined> {
  const path = schemaPath(org);
  const live = mustFind(await reader.list(path, undefined, DEFINITION_SHAPE), path);
  if (live.length === 0) return undefined;
  const items = Object.fromEntries(
    live.map((definition): [string, Definition] => {
      const canonical = liveDefinition(definition);
      const written: Definition = { value_type: canonical.value_type };
      if (canonical.required) written.required = true;
      if (canonical.default_value !== null) {
        written.default_value =
          canonical.value_type === "true_false"
            ? canonical.default_value === "true"
            : canonical.default_value;
      }
      if (canonical.allowed_values !== null) written.allowed_values = canonical.allowed_values;
      if (canonical.description !== null) written.description = canonical.description;
      if (canonical.values_editable_by !== "org_actors") {
        written.values_editable_by = canonical.values_editable_by;
      }
      if (canonical.require_explicit_values) written.require_explicit_values = true;
      return [definition.property_name, written];
    }),
  );
  return { mode: "additive", items };
}

/** A repository's values as they are live (true_false as true or false); none: nothing. */
export async function exportValues(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<PropertyValues | undefined> {
  const path = `${repoPath(repo)}/properties/values`;
  const schema = await readSchema(reader, repo.owner);
  // A user's repository has no custom properties.
  if (schema.kind === "absent") return undefined;
  const definitions = mustFind(schema, schemaPath(repo.owner));
  const live = mustFind(
    await reader.getOrAbsent(path, {
      name: "a list of custom property values",
      schema: VALUES_SHAPE.schema.array(),
    }),
    path,
  );
  const types = new Map(definitions.map((item) => [item.property_name.toLowerCase(), item]));
  const values = live.flatMap(
    ({ property_name: name, value }): Array<[string, PropertyValues[string]]> => {
      if (value === null) return [];
      const definition = types.get(name.toLowerCase());
      const written =
        definition?.value_type === "true_false" && typeof value === "string"
          ? value === "true"
          : value;
      return [[definition?.property_name ?? name, written]];
    },
  );
  return values.length === 0 ? undefined : Object.fromEntries(values);
}
