import { CliError, type Command } from "./io.js";

export const schema: Command = async () => {
  throw new CliError("'schema' is not built yet");
};
