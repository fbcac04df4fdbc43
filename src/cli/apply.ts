import { CliError, type Command } from "./io.js";

export const apply: Command = async () => {
  throw new CliError("'apply' is not built yet");
};
