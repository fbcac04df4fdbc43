import type { Plan } from "../../core/plan.js";
import type { Redactor } from "../../core/redact.js";
import { renderPlan } from "../../render/index.js";
import { digestLine, planDigest } from "../plan-digest.js";
import { commentMarker } from "../sticky-comment.js";

/**
 * The body of a change request's sticky plan note, on either host: two hidden first lines — which
 * configuration's note this is (`commentMarker(key)`), and the digest of the plan it shows, which
 * the apply on merge compares its own plan with — then the plan as markdown within the host's
 * limit, every sensitive value redacted.
 */
export function planNoteBody(
  plan: Plan,
  redactor: Redactor,
  options: { key: string; title: string; maxLength: number; commit?: string; detailsUrl?: string },
): string {
  const { key, ...rendering } = options;
  const marker = `${commentMarker(key)}\n${digestLine(planDigest(plan))}`;
  return redactor.redact(renderPlan(redactor.plan(plan), "markdown", { ...rendering, marker }));
}
