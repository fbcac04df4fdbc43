import { matchesGlob } from "../../config/glob.js";
import { type Change, type ChangeError, newChange, unlistedChange } from "../../core/plan.js";
import { changeError, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { type ReadInvitation, readInvitation } from "./canonical.js";
import type { InvitationPolicy } from "./settings.js";

/** Audit of a repository's open invitations: each offending invitation is a report with its facts. */

const DAY_MS = 86_400_000;

export function invitationFindings(
  invitation: Pick<ReadInvitation, "id" | "invitee" | "created_at" | "expired">,
  policy: InvitationPolicy,
  now: number,
): string[] {
  const findings: string[] = [];
  const login = invitation.invitee?.login;
  const allowed = policy.allowed_invitees;
  if (allowed && login === undefined) {
    findings.push(
      `the invitee is not shown, so it cannot be matched against allowed_invitees (${allowed.join(", ")})`,
    );
  } else if (allowed && login !== undefined && !allowed.some((glob) => matchesGlob(glob, login))) {
    findings.push(`invitee ${login} is not in allowed_invitees (${allowed.join(", ")})`);
  }
  const created = Date.parse(invitation.created_at);
  if (policy.max_age_days !== undefined) {
    const ageDays = Math.floor((now - created) / DAY_MS);
    if (ageDays > policy.max_age_days) {
      findings.push(
        `open for ${ageDays} days (created ${invitation.created_at}), more than max_age_days ${policy.max_age_days}`,
      );
    }
  }
  if (policy.report_expired !== false && invitation.expired === true) {
    findings.push("the invitation has expired but is still listed as open");
  }
  return findings;
}

export async function auditInvitations(
  reader: ResourceReader,
  repo: RepoRef,
  policy: InvitationPolicy,
  now: number,
): Promise<Change[]> {
  const scope = `${repo.owner}/${repo.name}`;
  const path = `${repoPath(repo)}/invitations`;
  const base = (name: string): Change => newChange(reader.target, scope, "invitation", name);
  const listed = await reader.list(path, undefined, {
    name: "repository invitations",
    schema: readInvitation,
  });
  const unlisted = (error: ChangeError) => [
    unlistedChange(reader.target, scope, "invitation", error),
  ];
  if (listed.kind === "error") return unlisted(listed.error);
  if (listed.kind === "absent") {
    return unlisted(changeError(`repository ${scope} was not found`, "GET", path, 404));
  }
  return listed.data.map((invitation) => {
    const findings = invitationFindings(invitation, policy, now);
    const change = base(String(invitation.id));
    if (findings.length === 0) return change;
    return {
      ...change,
      action: "report",
      findings: [
        `invitation ${invitation.id}: ${invitation.invitee?.login ?? "(invitee not shown)"} (${invitation.permissions}) invited by ${invitation.inviter?.login ?? "(not shown)"}`,
        ...findings,
      ],
    };
  });
}
