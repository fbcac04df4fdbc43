import { defineKind } from "../kind.js";
import { auditMigration, locksOf } from "./plan.js";
import { migrationsSection } from "./settings.js";

/** Audits of migrations (`audits: {migrations: […]}`): reported, never changed. */
export const migrationKind = defineKind({
  name: "migration",
  section: {
    spec: migrationsSection,
    // A running migration that locks repositories holds back changes to them whichever shard plans
    // them, so every shard reads it.
    everyShard: true,
    plan: async ({ reader, entry }) => {
      const { change, live } = await auditMigration(reader, entry);
      const reason = `locked by migration ${change.name} (${live?.state}) with lock_repositories`;
      return {
        changes: [change],
        holds: locksOf(live).map((scope) => ({ scope, reason })),
      };
    },
  },
});
