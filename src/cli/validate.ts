import { CliError, type Command } from "./io.js";

export const validate: Command = async () => {
  throw new CliError("'validate' is not built yet");
};
