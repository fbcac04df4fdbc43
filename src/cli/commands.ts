/**
 * Every command but `sandbox`, which the dispatcher (./run.ts) imports as one module when a command
 * runs. Bundled (scripts/build-cli.js), each module imported on its own is a split point, and code
 * shared by a different set of them is one more chunk: with each command imported on its own,
 * `plan` loaded 70 files, and Node resolves and links each ES module it loads.
 */
export { apply } from "./apply.js";
export { ciCommand } from "./ci.js";
export { drift } from "./drift.js";
export { exportCommand } from "./export.js";
export { migrate } from "./migrate.js";
export { plan } from "./plan.js";
export { schema } from "./schema.js";
export { validate } from "./validate.js";
