import { READS_MODES, type ReadsMode } from "../engine/bulk/reads.js";
import { CliError } from "./io.js";

/** `--reads` of the commands that plan live state: plan, apply and drift. */
export const readsFlag = { reads: { type: "string" } } as const;

export const readsHelp =
  "  --reads auto|rest|graphql  how repositories are read: graphql reads the kinds GraphQL covers\n" +
  "                           in bulk (many repositories a query), rest one request a resource, auto\n" +
  "                           (default) in bulk for a target with many repositories\n";

export function parseReads(command: string, value: string | undefined): ReadsMode {
  const reads = value ?? "auto";
  if (!(READS_MODES as readonly string[]).includes(reads)) {
    throw new CliError(
      `${command}: --reads must be one of ${READS_MODES.join(", ")}, got '${reads}'`,
    );
  }
  return reads as ReadsMode;
}
