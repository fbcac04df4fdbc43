/**
 * The library API: load the desired state, plan against live state, apply, render. The CLI is built
 * on exactly these; see the README for the semantics.
 */
export { formatConfigError } from "./config/index.js";
export { loadDesiredState } from "./engine/desired.js";
export type { ConfigError } from "./config/errors.js";
export type { DesiredState, TargetConfig } from "./config/model.js";
export type {
  Action,
  ApplyReport,
  Change,
  ChangeOutcome,
  DiffEntry,
  PartialPlan,
  Plan,
  PlannedRequest,
} from "./core/plan.js";
export { hasChanges, makePlan } from "./core/plan.js";
// Pass one to loadDesiredState ({ redactor }) and show plans through redactor.plan(), as the CLI does.
export { Redactor } from "./core/redact.js";
export { Secret } from "./core/secret.js";
export { applyPlan } from "./engine/apply.js";
export { type ChangedPlanInput, planChanged } from "./engine/changed.js";
export { buildPlan } from "./engine/plan.js";
export { ForgeClient, type ForgeClientOptions } from "./forge/client.js";
export { renderApplyReport, renderPlan } from "./render/index.js";
export { ResourceReader } from "./resources/context.js";
export { type RunningSandbox, type SandboxOptions, startSandbox } from "./sandbox/index.js";
