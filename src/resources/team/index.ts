import { defineKind } from "../kind.js";
import { verifyTeamWrite } from "./canonical.js";
import { planTeams } from "./plan.js";
import { teamsSetting } from "./settings.js";
import { exportTeams } from "./export.js";

/**
 * An organization's teams (`organizations: - name: acme, teams: {<slug>: …}`), keyed by slug: their
 * name, description, privacy, parent and notification setting, and their members. docs/kinds.md, "Teams".
 */
export const team = defineKind({
  name: "team",
  organization: {
    setting: teamsSetting,
    plan: ({ reader, at, value, options }) => planTeams(reader, at, value, options),
    export: exportTeams,
  },
  verify: verifyTeamWrite,
});
