/**
 * How deploy keys are written: `deploy_keys: {mode, keys: [{title, key, read_only}]}`, a list keyed
 * by each key's SHA256 fingerprint (docs/kinds.md, "Deploy keys").
 */
import * as z from "zod";
import { closed } from "../../config/fields.js";
import { defineSetting, type PrintBlock, type RuleProblem } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";
import { fingerprintOf } from "./canonical.js";

const deployKey = closed({
  title: z.string().min(1).describe("The key's name on GitHub (required)."),
  key: z
    .string()
    .refine((text) => fingerprintOf(text) !== undefined, {
      error: "key must be an OpenSSH public key: <type> <base64> [comment]",
    })
    .describe(
      "The OpenSSH public key (`ssh-ed25519 AAAA… comment`); keyed by its SHA256 fingerprint.",
    ),
  read_only: z
    .boolean()
    .optional()
    .describe("true (default): the key only reads; false: it may push too."),
});

const deployKeysSchema = closed({
  mode: modeField("deploy keys"),
  keys: z.array(deployKey).optional().describe("The deploy keys, each matched by its fingerprint."),
});

export type DeployKeySettings = z.output<typeof deployKey>;
export type DeployKeys = z.output<typeof deployKeysSchema>;

/** A key listed twice (by fingerprint) is one key written twice. */
function deployKeyRules(value: DeployKeys): RuleProblem[] {
  const seen = new Map<string, number>();
  return (value.keys ?? []).flatMap((item, index): RuleProblem[] => {
    const fingerprint = fingerprintOf(item.key);
    if (fingerprint === undefined) return [];
    const first = seen.get(fingerprint);
    seen.set(fingerprint, first ?? index);
    return first === undefined
      ? []
      : [
          {
            path: ["keys", index, "key"],
            message: `the same key as keys[${first}] (${fingerprint})`,
            sameAs: ["keys", first, "key"],
          },
        ];
  });
}

function printDeployKeys(value: DeployKeys): PrintBlock[] {
  return [
    modeBlock("deploy_key", value.mode),
    ...(value.keys ?? []).map((item, index): PrintBlock => ({
      kind: "deploy_key",
      name: fingerprintOf(item.key) ?? `keys[${index}]`,
      path: ["keys", index],
      ...(item.read_only === undefined ? { defaults: [["read_only", true]] } : {}),
    })),
  ];
}

export const deployKeysSetting = defineSetting({
  key: "deploy_keys",
  schema: deployKeysSchema.describe(
    "The repository's deploy keys: mode (additive or authoritative) and keys, matched by fingerprint.",
  ),
  rules: deployKeyRules,
  defines: () => [{ id: "deploy_keys", path: [], what: "the deploy key list" }],
  print: printDeployKeys,
});
