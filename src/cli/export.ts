import { CliError, type Command } from "./io.js";

export const exportCommand: Command = async () => {
  throw new CliError("'export' is not built yet");
};
