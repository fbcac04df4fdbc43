import { DEFAULT_READS, READS_MODES, type ReadsMode } from "../engine/bulk/reads.js";
import { CliError } from "./io.js";

/** `--reads` of the commands that plan live state: plan, apply and drift. */
export const readsFlag = { reads: { type: "string" } } as const;

export const readsHelp =
  "  --reads auto|rest|graphql  how repositories and GitLab projects are read: graphql reads the\n" +
  "                           kinds GraphQL covers in bulk (many a query), rest one request a\n" +
  "                           resource, auto in bulk for a target with many of them\n" +
  `                           (default ${DEFAULT_READS})\n`;

export function parseReads(command: string, value: string | undefined): ReadsMode {
  const reads = value ?? DEFAULT_READS;
  if (!(READS_MODES as readonly string[]).includes(reads)) {
    throw new CliError(
      `${command}: --reads must be one of ${READS_MODES.join(", ")}, got '${reads}'`,
    );
  }
  return reads as ReadsMode;
}
