import * as z from "zod";
import type { RepositoryEntry } from "../config/model.js";
import type { Change } from "../core/plan.js";
import { changeError, newChange, repoPath, type RepoRef, type ResourceReader } from "./context.js";
import { matchesGlob } from "../config/glob.js";

/** Audit of a repository's open invitations: each offending invitation is a report with its facts. */
const account = z.looseObject({ login: z.string().optional() }).nullish();
const readInvitation = z.looseObject({
  id: z.number().int(),
  invitee: account,
  inviter: account,
  permissions: z.string().optional(),
  created_at: z.string().optional(),
  expired: z.boolean().optional(),
});
type ReadInvitation = z.infer<typeof readInvitation>;

type Policy = NonNullable<RepositoryEntry["invitations"]>;

const DAY_MS = 86_400_000;

export function invitationFindings(
  invitation: ReadInvitation,
  policy: Policy,
  now: number,
): string[] {
  const findings: string[] = [];
  const login = invitation.invitee?.login ?? "(unknown)";
  if (policy.allowedInvitees && !policy.allowedInvitees.some((glob) => matchesGlob(glob, login))) {
    findings.push(
      `invitee ${login} is not in allowed_invitees (${policy.allowedInvitees.join(", ")})`,
    );
  }
  const created = invitation.created_at ? Date.parse(invitation.created_at) : Number.NaN;
  if (policy.maxAgeDays !== undefined && Number.isFinite(created)) {
    const ageDays = Math.floor((now - created) / DAY_MS);
    if (ageDays > policy.maxAgeDays) {
      findings.push(
        `open for ${ageDays} days (created ${invitation.created_at}), more than max_age_days ${policy.maxAgeDays}`,
      );
    }
  }
  if (policy.reportExpired && invitation.expired === true) {
    findings.push("the invitation has expired but is still listed as open");
  }
  return findings;
}

export async function auditInvitations(
  reader: ResourceReader,
  repo: RepoRef,
  policy: Policy,
  now: number,
): Promise<Change[]> {
  const scope = `${repo.owner}/${repo.name}`;
  const path = `${repoPath(repo)}/invitations`;
  const base = (name: string): Change => newChange(reader.target, scope, "invitation", name);
  const listed = await reader.list(path, undefined, {
    name: "repository invitations",
    schema: readInvitation,
  });
  if (listed.kind === "error") return [{ ...base("*"), error: listed.error }];
  if (listed.kind === "absent") {
    return [
      { ...base("*"), error: changeError(`repository ${scope} was not found`, "GET", path, 404) },
    ];
  }
  return listed.data.map((invitation) => {
    const findings = invitationFindings(invitation, policy, now);
    const change = base(String(invitation.id));
    if (findings.length === 0) return change;
    return {
      ...change,
      action: "report",
      findings: [
        `invitation ${invitation.id}: ${invitation.invitee?.login ?? "(unknown)"} (${invitation.permissions ?? "?"}) invited by ${invitation.inviter?.login ?? "(unknown)"}`,
        ...findings,
      ],
    };
  });
}
