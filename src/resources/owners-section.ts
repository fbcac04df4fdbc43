import * as z from "zod";
import { closed, OWNER_NAME, pathOrId, targetReference } from "../config/fields.js";
import type { Defined, PrintBlock, TargetType } from "../config/spec.js";
import { awaitingCreation, type Change } from "../core/plan.js";
import type { OwnerPart, SectionPart } from "./kind.js";

/**
 * An owner scope's place in the file: `organizations` (GitHub), `groups` (GitLab), or `instance`
 * (a GitLab instance itself: one entry per GitLab target, naming no owner).
 */
export interface OwnerFrame {
  at: "organizations" | "groups" | "instance";
  /** The entry's key naming the owner, and its schema; none for the instance. */
  named?: { key: "name" | "group"; schema: z.ZodType };
  targetType: TargetType;
  noun: readonly [string, string];
  /** The section's description, given the keys its kinds add. */
  description(keys: string): string;
  /** What an owner is, in messages: "organization", "group". */
  what: string;
}

export const ORGANIZATIONS: OwnerFrame = {
  at: "organizations",
  named: {
    key: "name",
    schema: z
      .string()
      .regex(OWNER_NAME, { error: "expected an organization login such as acme" })
      .describe("The organization."),
  },
  targetType: "github",
  noun: ["organization", "organizations"],
  description: (keys) => `Organizations and their ${keys}.`,
  what: "organization",
};

export const GROUPS: OwnerFrame = {
  at: "groups",
  named: {
    key: "group",
    schema: pathOrId(
      "The group: its numeric id or full path such as acme or acme/platform.",
      "acme",
      false,
    ),
  },
  targetType: "gitlab",
  noun: ["group", "groups"],
  description: (keys) => `Groups and their ${keys}.`,
  what: "group",
};

/**
 * The scope an instance entry's changes are addressed under: no group or project path can be it
 * (GitLab's paths hold no parentheses), as the gist audit's `(authenticated user)` is no login.
 */
export const INSTANCE_SCOPE = "(instance)";

/**
 * A GitLab instance's own settings, one entry per GitLab target (`target` names it, and may be left
 * out when there is one): what an administrator manages for every group and project.
 */
export const INSTANCE: OwnerFrame = {
  at: "instance",
  targetType: "gitlab",
  noun: ["instance", "instances"],
  description: (keys) =>
    `A GitLab instance's own ${keys}, for every group and project: one entry per GitLab target, planned with an administrator's token.`,
  what: "GitLab instance",
};

/** An owner's entry as written: its name, and the kinds' keys. */
type OwnerEntry = Record<string, unknown>;

/**
 * An owner section (`organizations`, `groups`), composed from every kind's part of that scope: an
 * entry names one owner and holds the keys of any of those kinds (`rulesets`, `teams`, `settings` …).
 * Each key is planned, defined once and printed by its own kind; the section only routes the keys,
 * so a kind with such a part is added to it by its registration alone.
 */
export function ownersSection(
  frame: OwnerFrame,
  kinds: ReadonlyArray<{ name: string; part: OwnerPart<z.ZodType, string> }>,
) {
  const parts = kinds.map((kind) => kind.part);
  const nameOf = new Map(kinds.map((kind) => [kind.part, kind.name]));
  const settings = parts.map((part) => part.setting);
  const shape: Record<string, z.ZodType> = {
    ...(frame.named && { [frame.named.key]: frame.named.schema }),
    target: targetReference(frame.targetType),
  };
  for (const setting of settings) shape[setting.key] = setting.schema.optional();
  const named = frame.named;
  const keys = settings.map((setting) => setting.key).join(", ");
  const ownerOf = (value: OwnerEntry) =>
    named === undefined ? INSTANCE_SCOPE : String(value[named.key]);
  const entry: z.ZodType<OwnerEntry> = closed(shape)
    .superRefine((written: OwnerEntry, ctx) => {
      // Rules over one key that involve another key of the same entry (the repositories an
      // organization's Actions settings select must be named where the entry names them).
      for (const setting of settings) {
        const own = written[setting.key];
        if (own === undefined || setting.rules === undefined) continue;
        for (const problem of setting.rules(own, {
          ...(frame.at === "organizations" ? { ownerType: "organization" as const } : {}),
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
    .describe(`A ${frame.what} and what forgeplan manages of it: ${keys}.`);
  const present = (value: OwnerEntry) =>
    parts.filter((part) => value[part.setting.key] !== undefined);
  const part: SectionPart<typeof entry> = {
    spec: {
      at: [frame.at],
      entry,
      list: true,
      description: frame.description(keys),
      targetType: frame.targetType,
      noun: frame.noun,
      scope: ownerOf,
      secrets: settings.flatMap((setting) =>
        (setting.secrets ?? []).map((path) => [setting.key, ...path]),
      ),
      plain: settings.flatMap((setting) =>
        (setting.plain ?? []).map((path) => [setting.key, ...path]),
      ),
      defines: (owner, target) => {
        // The loader keeps what is defined apart per target: an instance entry is its target's.
        const whose =
          named === undefined ? `the ${frame.what} ${target}` : `${frame.what} ${ownerOf(owner)}`;
        return present(owner).flatMap(({ setting }) =>
          setting.defines(owner[setting.key]).map((defined): Defined => ({
            id: `${ownerOf(owner).toLowerCase()}|${setting.key}|${defined.id}`,
            path: [setting.key, ...defined.path],
            what: `${defined.what} of ${whose}`,
          })),
        );
      },
      print: (owner) => {
        return present(owner).flatMap(({ setting }) =>
          setting
            .print(owner[setting.key])
            .map((block): PrintBlock => ({ ...block, path: [setting.key, ...block.path] })),
        );
      },
    },
    plan: async ({ reader, entry: owner, options }) => {
      const at = ownerOf(owner);
      const planOne = (part: OwnerPart<z.ZodType, string>) =>
        part.plan({ reader, at, value: owner[part.setting.key], options });
      const configured = present(owner);
      // The kind that may create the owner is planned first: while it creates it, the others wait.
      const creator = configured.find((part) => part.creates === true);
      const others = configured.filter((part) => part !== creator);
      const own: Change[] = creator === undefined ? [] : await planOne(creator);
      if (own.some((change) => change.step === "create" && change.error === undefined)) {
        const key = creator!.setting.key;
        return {
          changes: [
            ...own,
            ...others.map((part) =>
              awaitingCreation(reader.target, at, nameOf.get(part)!, `${key}.create`),
            ),
          ],
        };
      }
      const planned = await Promise.all(others.map(planOne));
      return { changes: [...own, ...planned.flat()] };
    },
    // Export composes an owner's entry kind by kind in the engine (src/engine/export.ts), so a
    // kind that cannot be read leaves out that kind only.
  };
  return part;
}
