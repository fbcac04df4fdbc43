/** How audits of migrations are written: `audits: {migrations: [{org | user, id, …}]}`. */
import * as z from "zod";
import { closed, name, positiveId, REPOSITORY_NAME, targetReference } from "../../config/fields.js";
import { defineSection } from "../../config/spec.js";

const migrationState = z.enum(["pending", "exporting", "exported", "failed"]);

const migrationAudit = closed({
  target: targetReference("github"),
  org: name("The organization that owns the migration.").optional(),
  user: z.literal(true).optional().describe("true: a migration of the authenticated user."),
  id: positiveId("The migration id."),
  state: z
    .union([migrationState, z.array(migrationState).min(1)])
    .optional()
    .describe("The expected state, or a list of acceptable states."),
  repositories: z
    .array(
      z
        .string()
        .regex(REPOSITORY_NAME, { error: 'expected "owner/repo"' })
        .describe('A repository, "owner/repo".'),
    )
    .optional()
    .describe("The repositories the migration is expected to hold (in any order)."),
})
  .refine((audit) => (audit.org === undefined) !== (audit.user === undefined), {
    error: "give exactly one of org (an organization migration) or user: true (your own migration)",
  })
  .describe("One migration and what it is expected to be.");

export type MigrationAudit = z.infer<typeof migrationAudit>;

/** An organization migration is addressed under its organization, the user's under "user". */
export function scopeOf(audit: MigrationAudit): string {
  return audit.org ?? "user";
}

export const migrationsSection = defineSection({
  at: ["audits", "migrations"],
  entry: migrationAudit,
  list: true,
  description: "Audits of migrations: expected state and repositories.",
  targetType: "github",
  noun: ["audit", "audits"],
  scope: scopeOf,
  defines: (audit) => {
    const owner = audit.org !== undefined ? `organization ${audit.org.toLowerCase()}` : "your user";
    return [
      {
        id: `${owner}|${audit.id}`,
        path: [],
        what: `the audit of migration ${audit.id} of ${owner}`,
      },
    ];
  },
  print: (audit) => [{ kind: "migration", name: String(audit.id), path: [] }],
});
