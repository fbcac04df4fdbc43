import * as z from "zod";
import type { GistAudit } from "../config/model.js";
import type { Change } from "../core/plan.js";
import { newChange, type ResourceReader } from "./context.js";

/** Audit of the token owner's gists: public gists are reported unless the policy allows them. */
const readGist = z.looseObject({
  id: z.string(),
  public: z.boolean().optional(),
  description: z.string().nullish(),
  updated_at: z.string().optional(),
  owner: z.looseObject({ login: z.string().optional() }).nullish(),
  files: z.record(z.string(), z.unknown()).optional(),
});

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
    if (audit.allowPublic || gist.public !== true) return change;
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
