import * as z from "zod";
import { closed } from "../../config/fields.js";
import { matchesGlob } from "../../config/glob.js";
import { type Change, type ChangeError, newChange, unlistedChange } from "../../core/plan.js";
import { changeError, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import type { KindModule } from "../kind.js";

/** Audit of a repository's open invitations: each offending invitation is a report with its facts. */

const invitations = closed({
  allowed_invitees: z
    .array(
      z
        .string()
        .regex(/^[A-Za-z0-9*?[\]!-]+$/, { error: "expected a login or a glob such as octo-*" }),
    )
    .optional()
    .describe("Logins (globs allowed) that may hold open invitations; leave out to allow anyone."),
  max_age_days: z
    .int()
    .positive()
    .optional()
    .describe("Report invitations older than this many days."),
  report_expired: z
    .boolean()
    .optional()
    .describe("Report expired invitations that are still listed (default true)."),
}).describe("Audit of the repository's open invitations (reported, never changed).");

export type InvitationPolicy = z.infer<typeof invitations>;

// GitHub's schema makes invitee and inviter nullable (nullable-simple-user): an invitation whose
// account is not shown is still listed, and audited as such.
const account = z.looseObject({ login: z.string().optional() }).nullish();
// `created_at` and `permissions` are required of a Repository Invitation (the spec; GitHub's
// schema): an invitation without a readable `created_at` is an error, never one of unknown age that
// max_age_days passes over.
const readInvitation = z.looseObject({
  id: z.number().int(),
  invitee: account,
  inviter: account,
  permissions: z.string(),
  created_at: z.string().refine((value) => Number.isFinite(Date.parse(value)), {
    error: "expected a date-time",
  }),
  expired: z.boolean().optional(),
});
type ReadInvitation = z.infer<typeof readInvitation>;

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

export const invitation: KindModule = {
  name: "invitation",
  repository: {
    setting: {
      key: "invitations",
      schema: invitations,
      defines: () => [{ id: "invitations", path: [], what: "the invitation audit" }],
      print: () => [
        { kind: "invitation", name: "policy", path: [], defaults: [["report_expired", true]] },
      ],
    },
    plan: ({ reader, repo, value, options }) =>
      auditInvitations(reader, repo, value as InvitationPolicy, options.now),
  },
};
