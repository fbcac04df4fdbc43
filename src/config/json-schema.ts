import * as z from "zod";
import { fileSchema } from "./schema.js";
import type { ConfigSpec } from "./spec.js";

/**
 * The JSON Schema of a desired-state file, generated from the zod schema (draft-07, which editors'
 * YAML language servers support best). `forgeplan schema` prints it; schema/forgeplan.schema.json
 * holds the same bytes.
 */
export function configJsonSchema(spec: ConfigSpec): Record<string, unknown> {
  const generated = z.toJSONSchema(fileSchema(spec, "describe"), {
    target: "draft-7",
    io: "input",
  });
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: "forgeplan desired state",
    ...rest,
  };
}

/** The schema as `forgeplan schema` prints it and the committed file holds it. */
export function configJsonSchemaText(spec: ConfigSpec): string {
  return `${JSON.stringify(configJsonSchema(spec), null, 2)}\n`;
}
