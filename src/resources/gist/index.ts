import * as z from "zod";
import { closed, targetReference, UTC_TIME } from "../../config/fields.js";
import { type Change, type ChangeError, newChange, unlistedChange } from "../../core/plan.js";
import { changeError, type ResourceReader } from "../context.js";
import type { KindModule } from "../kind.js";
import { credentialUser, needsUser } from "../user-reads.js";

/** Audit of the token owner's gists: public gists are reported unless the policy allows them. */

const gistAudit = closed({
  target: targetReference("github"),
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

const account = z.looseObject({ login: z.string().optional() }).nullish();

// `public` decides the finding: a gist without it is not the Base Gist the spec defines, and is an
// error rather than taken for a secret one.
const readGist = z.looseObject({
  id: z.string(),
  public: z.boolean(),
  description: z.string().nullish(),
  updated_at: z.string().optional(),
  owner: account,
  user: account,
  files: z.record(z.string(), z.unknown()).optional(),
});

function ownerOf(gist: z.infer<typeof readGist>): string | undefined {
  return gist.owner?.login ?? gist.user?.login;
}

/** Whose gists are read is known only once they are: the token's user. */
const SCOPE = "(authenticated user)";

/**
 * Why the audit asks who the token is first: `GET /gists` lists the gists of the authenticated user,
 * but "if called anonymously, this endpoint returns all public gists" (gists/list in
 * @octokit/openapi; spec endpoint 4), so a request without a user behind it would audit everyone's.
 */
const NEEDS_USER =
  "the gist audit reads the gists of the token's user (GET /gists): it needs a user's token, not an App installation's (nor a workflow's GITHUB_TOKEN)";

export async function auditGists(reader: ResourceReader, audit: GistAudit): Promise<Change[]> {
  const base = (scope: string, name: string): Change =>
    newChange(reader.target, scope, "gist", name);
  const failed = (error: ChangeError): Change[] => [
    unlistedChange(reader.target, "gists", "gist", error),
  ];
  const user = await credentialUser(reader, NEEDS_USER);
  if ("error" in user) return failed(user.error);
  const path = "/gists";
  const listed = await reader.list(path, audit.since ? { since: audit.since } : undefined, {
    name: "gists",
    schema: readGist,
  });
  if (listed.kind === "error") return failed(needsUser(listed.error, NEEDS_USER));
  // The list is the user's whatever it holds: a 404 is no answer about the gists, not "none".
  if (listed.kind === "absent") return failed(changeError(listed.detail, "GET", path, 404));
  // Only the user's own gists are audited: another's in the answer means it is not the user's list,
  // and so does one whose owner is not shown (the spec makes `owner` optional and `user` nullable).
  const login = user.login.toLowerCase();
  const foreign = listed.data.find((gist) => ownerOf(gist)?.toLowerCase() !== login);
  if (foreign !== undefined) {
    const owner = ownerOf(foreign) ?? "no owner shown";
    return failed(
      changeError(
        `answered 200 with gist ${foreign.id} of ${owner} among the gists of ${user.login}, the token's user: not that user's own list, so nothing was audited`,
        "GET",
        path,
        200,
      ),
    );
  }
  return listed.data.map((gist) => {
    const change = base(ownerOf(gist) ?? user.login, gist.id);
    if (audit.allow_public === true || !gist.public) return change;
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
      targetType: "github",
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
