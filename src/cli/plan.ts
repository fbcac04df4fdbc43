import { CliError, type Command } from "./io.js";

export const plan: Command = async () => {
  throw new CliError("'plan' is not built yet");
};
