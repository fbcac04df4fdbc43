/** How the audit of a repository's open invitations is written: `invitations: {…}`. */
import * as z from "zod";
import { closed } from "../../config/fields.js";
import { defineSetting } from "../../config/spec.js";

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

export const invitationsSetting = defineSetting({
  key: "invitations",
  schema: invitations,
  defines: () => [{ id: "invitations", path: [], what: "the invitation audit" }],
  print: () => [
    { kind: "invitation", name: "policy", path: [], defaults: [["report_expired", true]] },
  ],
});
