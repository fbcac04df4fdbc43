import * as z from "zod";

/** GitHub's Repository Invitation, as far as the audit reads it. */

// GitHub's schema makes invitee and inviter nullable (nullable-simple-user): an invitation whose
// account is not shown is still listed, and audited as such.
const account = z.looseObject({ login: z.string().optional() }).nullish();
// `created_at` and `permissions` are required of a Repository Invitation (the spec; GitHub's
// schema): an invitation without a readable `created_at` is an error, never one of unknown age that
// max_age_days passes over.
export const readInvitation = z.looseObject({
  id: z.number().int(),
  invitee: account,
  inviter: account,
  permissions: z.string(),
  created_at: z.string().refine((value) => Number.isFinite(Date.parse(value)), {
    error: "expected a date-time",
  }),
  expired: z.boolean().optional(),
});
export type ReadInvitation = z.infer<typeof readInvitation>;
