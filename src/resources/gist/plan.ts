import { type Change, type ChangeError, newChange, unlistedChange } from "../../core/plan.js";
import { changeError, type ResourceReader } from "../context.js";
import { credentialUser, needsUser } from "../user-reads.js";
import { ownerOf, readGist } from "./canonical.js";
import type { GistAudit } from "./settings.js";

/** Audit of the token owner's gists: public gists are reported unless the policy allows them. */

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
