import type { Plan } from "../core/plan.js";
import { readPlan } from "../engine/merge.js";

export { PlanFileError, planFileText } from "../core/plan-file.js";

/**
 * Reads a saved plan (`forgeplan plan --out`, or `planFileText(plan)`) with the kinds this forgeplan
 * knows: the whole file is checked and the summary recomputed from the changes; anything else is a
 * `PlanFileError` whose message names `source` and what is wrong.
 */
export function readPlanFile(text: string, source = "plan.json"): Plan {
  return readPlan({ source, text });
}
