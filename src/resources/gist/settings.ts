/** How the audit of the token's user's gists is written: `audits: {gists: {…}}`. */
import * as z from "zod";
import { closed, targetReference, UTC_TIME } from "../../config/fields.js";
import { defineSection } from "../../config/spec.js";

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

export type GistAudit = z.infer<typeof gistAudit>;

/** Whose gists are read is known only once they are: the token's user. */
export const SCOPE = "(authenticated user)";

export const gistsSection = defineSection({
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
  print: () => [{ kind: "gist", name: "policy", path: [], defaults: [["allow_public", false]] }],
});
