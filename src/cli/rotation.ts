import type { Rotation } from "../core/plan.js";
import { CliError } from "./io.js";

/** The flags that send write-only values again, shared by plan and apply. */
export const rotationFlags = {
  "rotate-secrets": { type: "boolean" },
  "rotate-secret": { type: "string", multiple: true },
} as const;

export const rotationHelp = `  --rotate-secrets         send every managed secret again: webhook secrets, authorization headers,
                           Actions and Dependabot secrets (they are write-only, so a plan cannot
                           tell whether the service holds the current value)
  --rotate-secret NAME     send again only the secrets named NAME, or read from the variable NAME
                           (repeatable)
`;

/** Secret names as GitHub allows them, and environment variable names. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the flags ask to send again; `saved` is the rotation a saved plan was made with. */
export function rotationOption(
  command: string,
  values: { "rotate-secrets"?: boolean; "rotate-secret"?: string[] },
  saved: Rotation = {},
): Rotation {
  const given = values["rotate-secret"] ?? [];
  for (const name of given) {
    if (!NAME.test(name)) {
      throw new CliError(
        `${command}: --rotate-secret expects a secret's or a variable's name (letters, digits and _), got '${name}'`,
      );
    }
  }
  const names = [...new Set([...(saved.rotateSecretNames ?? []), ...given])];
  return {
    rotateSecrets: values["rotate-secrets"] === true || saved.rotateSecrets === true,
    rotateSecretNames: names,
  };
}
