import { schemaText } from "../engine/desired.js";
import { parseFlags } from "./args.js";
import type { Command } from "./io.js";

const help = `usage: forgeplan schema

Prints the JSON Schema of the desired-state file (the bytes of schema/forgeplan.schema.json).
Editors use it through a first line such as:
  # yaml-language-server: $schema=../schema/forgeplan.schema.json
`;

export const schema: Command = async (argv, io) => {
  const { values } = parseFlags("schema", argv, { help: { type: "boolean", short: "h" } });
  io.stdout.write(values.help ? help : schemaText());
  return 0;
};
