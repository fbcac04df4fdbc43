/**
 * How a project's deploy keys are written (`projects[].deploy_keys`):
 * `deploy_keys: {mode, items: {<title>: {key, can_push, expires_at}}}`, the shape of the other
 * collections. A key is known by its public key's SHA256 fingerprint, not by its title: a retitled
 * key is an edit of its title, a rotated key (another `key` under the same title) a replacement.
 * Each item is managed whole: `can_push` omitted is GitLab's default, false; `expires_at` omitted
 * is no expiry.
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type PrintBlock } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";
import { keyBlob, sha256Fingerprint } from "./ssh-key.js";

/** An ISO 8601 time with its zone, as GitLab takes `expires_at` (`YYYY-MM-DDTHH:MM:SSZ`). */
const expiry = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/, {
    error: "expected an ISO 8601 time with its zone, such as 2027-01-31T00:00:00Z",
  })
  .refine((text) => !Number.isNaN(Date.parse(text)), {
    error: "expected a time that exists, such as 2027-01-31T00:00:00Z",
  });

const publicKey = z
  .string()
  .max(5000)
  .superRefine((text, ctx) => {
    const read = keyBlob(text);
    if ("problem" in read) ctx.addIssue({ code: "custom", message: read.problem });
  });

const deployKey = closed({
  key: publicKey.describe(
    "The OpenSSH public key (ssh-ed25519 AAAA… comment); its SHA256 fingerprint is the key's identity.",
  ),
  can_push: z
    .boolean()
    .optional()
    .describe("Whether the key may push to the repository (default false)."),
  expires_at: expiry
    .optional()
    .describe(
      "When the key expires (ISO 8601, GitLab 15.11 and later); set when the key is added, GitLab edits no expiry.",
    ),
});

const deployKeysSchema = closed({
  mode: modeField("deploy keys"),
  items: z
    .record(
      z.string().min(1).max(255),
      orNull(deployKey).describe(
        "The deploy key of this title, managed whole; null means no key of this title may be enabled in the project.",
      ),
    )
    .optional()
    .describe("Deploy keys by title, each known by its public key's fingerprint.")
    .refine(
      (items) => {
        const prints = Object.values(items ?? {}).flatMap((item) =>
          item === null ? [] : [sha256Fingerprint(item.key) ?? item.key],
        );
        return new Set(prints).size === prints.length;
      },
      { error: "a public key is listed under two titles (GitLab enables a key once a project)" },
    ),
});

export type DeployKeySettings = z.output<typeof deployKey>;
export type DeployKeys = z.output<typeof deployKeysSchema>;

function printDeployKeys(value: DeployKeys): PrintBlock[] {
  return [
    modeBlock("gitlab_deploy_key", value.mode),
    ...Object.keys(value.items ?? {}).map((title): PrintBlock => ({
      kind: "gitlab_deploy_key",
      name: title,
      path: ["items", title],
    })),
  ];
}

export const deployKeysSetting = defineSetting({
  key: "deploy_keys",
  schema: deployKeysSchema.describe(
    "Deploy keys of a GitLab project: mode (additive or authoritative) and items by title, each a public key, can_push and expires_at.",
  ),
  // Authoritative mode is about the whole list: one setting, defined once per project.
  defines: () => [{ id: "deploy_keys", path: [], what: "the deploy key list" }],
  print: printDeployKeys,
});
