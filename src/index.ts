/**
 * The library API (docs/library.md): `plan(configPaths, options)` and `apply(plan, options)` do in
 * one call what `forgeplan plan` and `forgeplan apply PLAN.json` do; the saved-plan codec reads and
 * writes plans; the renderers print them. Below them, the parts the CLI is built on: load the
 * desired state, plan against live state, apply, render.
 */
export { type ApplyOptions, type ApplyResult, apply } from "./library/apply.js";
export { type ConnectOptions, ConnectionError } from "./library/connect.js";
export { type LoadingOptions, type PlanOptions, type PlanResult, plan } from "./library/plan.js";
export { PlanFileError, planFileText, readPlanFile } from "./library/plan-file.js";
export type { Refusal } from "./engine/saved-plan.js";
export type { StopReason } from "./engine/apply.js";
export type { Shard } from "./engine/shard.js";
export type { ReadsMode } from "./engine/bulk/reads.js";
export { BudgetTooSmall } from "./engine/read-budget.js";
export type { ReadBudget } from "./core/budget.js";
export type { ClientEvent } from "./forge/client.js";
export { FORMATS, type Format, type RenderOptions } from "./render/index.js";
export { formatConfigError } from "./config/index.js";
export { loadDesiredState } from "./engine/desired.js";
export type { ConfigError } from "./config/errors.js";
export type { DesiredState, TargetConfig } from "./config/model.js";
export type {
  Action,
  ApplyReport,
  Change,
  ChangeError,
  ChangeOutcome,
  DiffEntry,
  Outcome,
  PartialPlan,
  Plan,
  PlannedRequest,
  PlanSummary,
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
