import type { RaisedLimit } from "../engine/plan-part.js";
import { CliError } from "./io.js";

/** The flags that raise the removal limit for one run (docs/configuration.md, "Removal limits"). */
export const removalLimitFlags = {
  "removal-limit": { type: "string" },
  "delete-limit": { type: "string" },
} as const;

export const removalLimitHelp = `  --removal-limit PERCENT  for this run, let a collection lose up to PERCENT of its members
                           (default 25, or removal_limit.share); --allow-delete alone does not
  --delete-limit N         for this run, let the plan delete up to N in all (removal_limit.deletes)
`;

/** What the run's flags raise, or undefined when they raise nothing. */
export function raisedLimit(
  command: string,
  values: { "removal-limit"?: string | undefined; "delete-limit"?: string | undefined },
): RaisedLimit | undefined {
  const share = values["removal-limit"];
  const deletes = values["delete-limit"];
  const raised: RaisedLimit = {};
  if (share !== undefined) {
    const match = /^(\d{1,3})%?$/.exec(share.trim());
    const percent = match ? Number(match[1]) : Number.NaN;
    if (!(percent >= 0 && percent <= 100)) {
      throw new CliError(
        `${command}: --removal-limit expects a percentage from 0 to 100, got '${share}'`,
      );
    }
    raised.share = percent;
  }
  if (deletes !== undefined) {
    if (!/^\d+$/.test(deletes.trim())) {
      throw new CliError(`${command}: --delete-limit expects a whole number, got '${deletes}'`);
    }
    raised.deletes = Number(deletes);
  }
  return Object.keys(raised).length > 0 ? raised : undefined;
}
