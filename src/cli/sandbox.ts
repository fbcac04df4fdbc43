import { CliError, type Command } from "./io.js";

export const sandbox: Command = async () => {
  throw new CliError("'sandbox' is not built yet");
};
