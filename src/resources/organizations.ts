import * as z from "zod";
import { closed, OWNER_NAME, targetReference } from "../config/fields.js";
import type { Defined, PrintBlock } from "../config/spec.js";
import type { KindModule, OrganizationPart, SectionPart } from "./kind.js";

type OrganizationKind = KindModule & { organization: OrganizationPart };

/** An `organizations` entry: its name and target, and each kind's value under the kind's key. */
type OrganizationEntry = { name: string; target?: string | undefined; [key: string]: unknown };

/**
 * The `organizations` section, composed from every kind's organization part: an entry names one
 * organization and holds the keys of any of those kinds (`rulesets`, `teams`, `settings` …). Each
 * key is planned, defined once and printed by its own kind; the section only routes the keys, so a
 * kind with an organization part is added to it by its registration alone.
 */
export function organizationsSection(kinds: readonly OrganizationKind[]) {
  const settings = kinds.map((kind) => kind.organization.setting);
  const entry: z.ZodType<OrganizationEntry> = closed({
    name: z
      .string()
      .regex(OWNER_NAME, { error: "expected an organization login such as acme" })
      .describe("The organization."),
    target: targetReference("repository"),
    ...Object.fromEntries(settings.map((setting) => [setting.key, setting.schema.optional()])),
  })
    .superRefine((written: OrganizationEntry, ctx) => {
      // Rules over one key that involve another key of the same entry (the repositories an
      // organization's Actions settings select must be named where the entry names them).
      for (const setting of settings) {
        const own = written[setting.key];
        if (own === undefined || setting.rules === undefined) continue;
        for (const problem of setting.rules(own, {
          ownerType: "organization",
          settings: written,
        })) {
          ctx.addIssue({
            code: "custom",
            path: [setting.key, ...problem.path],
            message: problem.message,
          });
        }
      }
    })
    .describe(
      `An organization and what forgeplan manages of it: ${settings.map((setting) => setting.key).join(", ")}.`,
    );
  const present = (value: OrganizationEntry) =>
    kinds.filter((kind) => value[kind.organization.setting.key] !== undefined);
  const part: SectionPart<typeof entry> = {
    spec: {
      at: ["organizations"],
      entry,
      list: true,
      description: `Organizations and their ${settings.map((setting) => setting.key).join(", ")}.`,
      targetType: "repository",
      noun: ["organization", "organizations"],
      scope: (org) => org.name,
      secrets: settings.flatMap((setting) =>
        (setting.secrets ?? []).map((path) => [setting.key, ...path]),
      ),
      plain: settings.flatMap((setting) =>
        (setting.plain ?? []).map((path) => [setting.key, ...path]),
      ),
      defines: (org) =>
        present(org).flatMap(({ organization: { setting } }) =>
          setting.defines(org[setting.key]).map((defined): Defined => ({
            id: `${org.name.toLowerCase()}|${setting.key}|${defined.id}`,
            path: [setting.key, ...defined.path],
            what: `${defined.what} of organization ${org.name}`,
          })),
        ),
      print: (org) =>
        present(org).flatMap(({ organization: { setting } }) =>
          setting
            .print(org[setting.key])
            .map((block): PrintBlock => ({ ...block, path: [setting.key, ...block.path] })),
        ),
    },
    plan: async ({ reader, entry: org, options }) => {
      const planned = await Promise.all(
        present(org).map((kind) =>
          kind.organization.plan({
            reader,
            at: org.name,
            value: org[kind.organization.setting.key],
            options,
          }),
        ),
      );
      return { changes: planned.flat() };
    },
    // Export composes an organization's entry kind by kind in the engine (src/engine/export.ts),
    // so a kind that cannot be read leaves out that kind only.
  };
  return part;
}
