import { schemaText } from "../engine/desired.js";
import { parseFlags } from "./args.js";
import type { Command } from "./io.js";

export const flags = { help: { type: "boolean", short: "h" } } as const;

export const help = `usage: forgeplan schema

Prints the JSON Schema of the desired-state file (the bytes of schema/forgeplan.schema.json).
  -h, --help   this text

Editors use it through a first line such as:
  # yaml-language-server: $schema=../schema/forgeplan.schema.json
`;

export const schema: Command = async (argv, io) => {
  const { values } = parseFlags("schema", argv, flags);
  io.stdout.write(values.help ? help : schemaText());
  return 0;
};
