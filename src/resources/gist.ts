import * as z from "zod";
import { closed, targetReference, UTC_TIME } from "../config/fields.js";
import { type Change, newChange } from "../core/plan.js";
import type { ResourceReader } from "./context.js";
import type { KindModule } from "./kind.js";

/** Audit of the token owner's gists: public gists are reported unless the policy allows them. */

const gistAudit = closed({
  target: targetReference("repository"),
  allow_public: z
    .boolean()
    .optional()
    .describe("Whether public gists are allowed (default false: each is reported)."),
  since: z
    .string()
    .regex(UTC_TIME, { error: "expected a UTC time such as 2026-01-01T00:00:00Z" })
    .optional()
    .describe("Only audit gists updated after this time (YYYY-MM-DDTHH:MM:SSZ)."),
}).describe("Audit of the authenticated user's gists.");

type GistAudit = z.infer<typeof gistAudit>;

const readGist = z.looseObject({
  id: z.string(),
  public: z.boolean().optional(),
  description: z.string().nullish(),
  updated_at: z.string().optional(),
  owner: z.looseObject({ login: z.string().optional() }).nullish(),
  files: z.record(z.string(), z.unknown()).optional(),
});

/** Whose gists are read is known only once they are: the token's user. */
const SCOPE = "(authenticated user)";

export async function auditGists(reader: ResourceReader, audit: GistAudit): Promise<Change[]> {
  const listed = await reader.list("/gists", audit.since ? { since: audit.since } : undefined, {
    name: "gists",
    schema: readGist,
  });
  const base = (scope: string, name: string): Change =>
    newChange(reader.target, scope, "gist", name);
  if (listed.kind === "error") return [{ ...base("gists", "*"), error: listed.error }];
  if (listed.kind === "absent") return [];
  return listed.data.map((gist) => {
    const change = base(gist.owner?.login ?? "gists", gist.id);
    if (audit.allow_public === true || gist.public !== true) return change;
    const files = Object.keys(gist.files ?? {});
    return {
      ...change,
      action: "report",
      findings: [
        `public gist ${gist.id}${gist.description ? ` "${gist.description}"` : ""} (${files.length} file${files.length === 1 ? "" : "s"}: ${files.join(", ")}), updated ${gist.updated_at ?? "?"}`,
        "public gists are not allowed (audits.gists.allow_public: false)",
      ],
    };
  });
}

export const gistKind: KindModule = {
  name: "gist",
  section: {
    spec: {
      at: ["audits", "gists"],
      entry: gistAudit,
      list: false,
      description: "Audit of the authenticated user's gists.",
      targetType: "repository",
      noun: ["audit", "audits"],
      scope: () => SCOPE,
      defines: (_entry, target) => [
        { id: "gists", path: [], what: `the gist audit of target ${target}` },
      ],
      print: () => [
        { kind: "gist", name: "policy", path: [], defaults: [["allow_public", false]] },
      ],
    },
    plan: async ({ reader, entry }) => ({ changes: await auditGists(reader, entry as GistAudit) }),
  },
};
