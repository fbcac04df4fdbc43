import { defineKind } from "../kind.js";
import { verifyEnvironmentWrite } from "./canonical.js";
import { planEnvironments } from "./plan.js";
import { environmentsSetting } from "./settings.js";
import { exportEnvironments } from "./export.js";

/**
 * Deployment environments (`environments: {<name>: …}`), keyed by name in any case. A written
 * environment is managed whole; `null` deletes one (as every delete, only with --allow-delete);
 * environments not named are left alone. docs/kinds.md, "Environments".
 */
export const environment = defineKind({
  name: "environment",
  repository: {
    setting: environmentsSetting,
    plan: ({ reader, at, value }) => planEnvironments(reader, at, value),
    export: exportEnvironments,
  },
  verify: verifyEnvironmentWrite,
});
