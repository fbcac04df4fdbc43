import * as z from "zod";

/** GitHub's Migration, as far as the audit reads it, and the live state it audits. */

export const readRepository = z.looseObject({ full_name: z.string() });
// `state` and `lock_repositories` decide the findings and the holds: a Migration without them is not
// the spec's Migration, and is an error rather than taken for an unlocked one in an unknown state.
export const readMigration = z.looseObject({
  id: z.number().int(),
  state: z.string(),
  lock_repositories: z.boolean(),
  repositories: z.array(readRepository).optional(),
});

export interface MigrationLive {
  state: string;
  lockRepositories: boolean;
  repositories: string[];
}
