/**
 * How webhooks are written in the configuration (`webhooks: {mode, hooks}`), and the hook as the
 * planner takes it (secrets as Secret objects).
 */
import * as z from "zod";
import { closed, httpUrl, name, positiveId, secretReference } from "../config/fields.js";
import type { RuleProblem } from "../config/spec.js";
import type { Secret } from "../core/secret.js";

const webhook = closed({
  url: httpUrl("https://ci.example.com/hook").describe(
    "The delivery URL; hooks are matched to the live ones by it unless id is given.",
  ),
  id: positiveId("Pins an existing hook by its id (then url is the URL to set)").optional(),
  events: z
    .array(name("An event name, or * for all."))
    .optional()
    .describe("The events that trigger the hook."),
  active: z.boolean().optional().describe("Whether deliveries are sent."),
  content_type: z.enum(["json", "form"]).optional().describe("The payload format: json or form."),
  branch_filter: z
    .string()
    .optional()
    .describe("Only pushes to branches matching this filter trigger the hook."),
  config: z
    .strictObject(
      {
        insecure_ssl: z
          .enum(["0", "1"])
          .optional()
          .describe(
            '"1" skips verifying the TLS certificate of the delivery URL; "0" (default) verifies it.',
          ),
      },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys"
            ? issue.keys
                .map(
                  (key) =>
                    `unknown key ${JSON.stringify(key)}: the service keeps only url, content_type, secret and insecure_ssl in a hook's config (url, content_type and secret have their own keys here)`,
                )
                .join("\n")
            : undefined,
      },
    )
    .optional()
    .describe("The hook's further config: insecure_ssl."),
  secret: secretReference("The hook's signing secret").optional(),
  secret_version: z
    .never({
      error:
        "secret_version is no longer used: the service keeps no record of which secret was written; send secrets again with 'forgeplan apply --rotate-secrets'",
    })
    .optional()
    .describe("Refused: secrets are sent again with 'forgeplan apply --rotate-secrets'."),
  authorization_header: secretReference("The Authorization header sent with deliveries").optional(),
});

export const webhooks = closed({
  mode: z
    .enum(["additive", "authoritative"])
    .optional()
    .describe(
      "additive (default): other live hooks are left alone; authoritative: hooks not listed are deleted.",
    ),
  hooks: z.array(webhook).optional().describe("The hooks this repository must have."),
});

/** One desired hook as the planner takes it. */
export interface WebhookSettings {
  url: string;
  id?: number;
  events?: string[];
  active?: boolean;
  content_type?: "json" | "form";
  branch_filter?: string;
  config?: { insecure_ssl?: "0" | "1" };
  secret?: Secret;
  authorization_header?: Secret;
}

export interface Webhooks {
  mode?: "additive" | "authoritative";
  hooks?: WebhookSettings[];
}

/** Two hooks of one list with the same url (or the same pinned id) could never both be matched. */
export function hookListRules(value: unknown): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const first = new Map<string, number>();
  ((value as Webhooks).hooks ?? []).forEach((hook, index) => {
    const keys: Array<[string, "url" | "id"]> = [[`url ${hook.url}`, "url"]];
    if (hook.id !== undefined) keys.push([`id ${hook.id}`, "id"]);
    for (const [key, field] of keys) {
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, index);
      else {
        problems.push({
          path: ["hooks", index, field],
          message: `another hook of this repository has the same ${field}`,
          sameAs: ["hooks", earlier],
        });
      }
    }
  });
  return problems;
}
