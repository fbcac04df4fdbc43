import { defineKind, loadedOnCall } from "../kind.js";
import { verifyEnvironmentWrite } from "./canonical.js";
import { planEnvironments } from "./plan.js";
import { environmentsSetting } from "./settings.js";

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
    export: loadedOnCall(async () => (await import("./export.js")).exportEnvironments),
  },
  verify: verifyEnvironmentWrite,
});
