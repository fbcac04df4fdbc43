export type { Action, Change, DiffEntry, Plan, PlannedRequest, ResourceKind } from "./core/plan.js";
export { hasChanges, makePlan } from "./core/plan.js";
export { Secret } from "./core/secret.js";
