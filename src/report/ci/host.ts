import type { PlanDigest } from "../plan-digest.js";

/**
 * What the CI steps (steps.ts: plan with a sticky note, apply of what was reviewed, the drift issue)
 * need of the code host they run on. The GitHub Action and `forgeplan ci` on GitLab run those steps
 * over one of these: GitHub's pull-request comments and issues (report/github/host.ts), GitLab's
 * merge-request notes and issues (report/gitlab/host.ts).
 */
export interface CiHost {
  /** How the host names a change request in messages: "pull request #3", "merge request !1". */
  changeName(number: number): string;
  /** The longest body a note, comment or issue may have on this host. */
  readonly bodyLimit: number;
  /** Creates this step's sticky plan note of a change request, or edits it in place. */
  upsertPlanNote(number: number, marker: string, body: string): Promise<NoteResult>;
  /** The plan digest the sticky note of the change request whose merge made `sha` carries. */
  reviewedPlan(sha: string, marker: string): Promise<ReviewedPlan>;
  /** Opens, updates or closes the one drift issue. */
  reportDrift(report: DriftReport): Promise<DriftResult>;
}

export interface NoteResult {
  action: "created" | "updated" | "unchanged";
  url: string;
  /** Something the log should say (the note was written as another account than expected). */
  warning?: string;
}

export type ReviewedPlan =
  | { found: true; number: number; url: string; digest: PlanDigest }
  | { found: false; reason: string };

export interface DriftReport {
  drifted: boolean;
  /** The body when drifted, without the marker: the plan as markdown within `bodyLimit`. */
  body: string;
  /** The comment an issue gets when it is closed. */
  resolvedNote: string;
}

export interface DriftResult {
  action: "opened" | "updated" | "unchanged" | "closed" | "none";
  number?: number;
  url?: string;
  warning?: string;
}
