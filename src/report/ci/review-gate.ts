import type { Plan } from "../../core/plan.js";
import { plural } from "../../render/wording.js";
import {
  type DigestDifference,
  digestDifference,
  type PlanDigest,
  planDigest,
} from "../plan-digest.js";
import type { ReviewedPlan } from "./host.js";

/**
 * The gate of an apply on merge, on either host: the plan made now goes ahead only when its digest
 * is the one the merged change request's note showed; anything else stops the step with what
 * differs, before a request is sent.
 */
export type Gate = { go: true; said: string } | { go: false; message: string };

export interface GateWording {
  /** "pull request #3", "merge request !1". */
  where: string;
  /** How a user applies a plan nobody reviewed: "set accept-replan: true", "pass --accept-replan". */
  override: string;
  /** Where the new plan can be read: "the job summary", "the job log". */
  planShownIn: string;
  /** What a new change request is called: "pull request", "merge request". */
  changeKind: string;
}

export type Refusal = Extract<Gate, { go: false }>;

/** A refusal before any plan is compared: no reviewed plan belongs to this merge. */
export function refuseUnreviewed(why: string, override: string): Refusal {
  return {
    go: false,
    message: `${why}; nothing was applied (${override} to apply a plan nobody reviewed)`,
  };
}

export function gateReviewed(
  reviewed: Extract<ReviewedPlan, { found: true }>,
  plan: Plan,
  sha: string,
  wording: GateWording,
): Gate {
  const compared = compareWithReviewed(reviewed.digest, plan);
  if (compared.same) {
    return { go: true, said: `the plan is the one reviewed on ${wording.where} (${reviewed.url})` };
  }
  return {
    go: false,
    message:
      `the plan at commit ${sha.slice(0, 12)} is not the one reviewed on ${wording.where}: ` +
      `${describeDifference(compared.difference)}; nothing was applied. Review the new plan in ` +
      `${wording.planShownIn} and plan it on a new ${wording.changeKind}, or ${wording.override} to apply it as it is`,
  };
}

/** The most addresses an annotation names per kind of difference; the job summary has them all. */
const NAMED = 10;

function named(addresses: readonly string[]): string {
  const shown = addresses.slice(0, NAMED).join(", ");
  return addresses.length > NAMED ? `${shown} and ${addresses.length - NAMED} more` : shown;
}

/** How the fresh plan differs from the reviewed one, in one paragraph (an annotation's message). */
export function describeDifference(difference: DigestDifference): string {
  if (difference.unitemized) {
    return "the plans differ (the reviewed plan was too large to record its changes one by one)";
  }
  const parts = [
    ...(difference.added.length > 0
      ? [`${plural(difference.added.length, "new change")}: ${named(difference.added)}`]
      : []),
    ...(difference.changed.length > 0
      ? [
          `${plural(difference.changed.length, "change")} planned differently: ${named(difference.changed)}`,
        ]
      : []),
    ...(difference.removed.length > 0
      ? [
          `${plural(difference.removed.length, "reviewed change")} no longer planned: ${named(difference.removed)}`,
        ]
      : []),
  ];
  return parts.length > 0 ? parts.join("; ") : "the plans differ";
}

/** Whether the plan about to be applied is the one reviewed, and how it differs when it is not. */
export function compareWithReviewed(
  reviewed: PlanDigest,
  plan: Plan,
): { same: true } | { same: false; difference: DigestDifference } {
  const now = planDigest(plan);
  if (now.sha256 === reviewed.sha256) return { same: true };
  return { same: false, difference: digestDifference(reviewed, now) };
}
