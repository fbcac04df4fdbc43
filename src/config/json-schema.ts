import * as z from "zod";
import { configFile } from "./schema.js";

/**
 * The JSON Schema of a desired-state file, generated from the zod schema (draft-07, which editors'
 * YAML language servers support best). `forgeplan schema` prints it; schema/forgeplan.schema.json
 * holds the same bytes.
 */
export function configJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(configFile, { target: "draft-7", io: "input" });
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: "forgeplan desired state",
    ...rest,
  };
}

/** The schema as `forgeplan schema` prints it and the committed file holds it. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
