import { attached } from "../../core/attached.js";
import type { App, Account, Branch, Repository } from "../world/records.js";
import type { Team } from "../team/records.js";

/** The users, teams and apps a protection names. */
export interface Principals {
  users: Account[];
  teams: Team[];
  apps: App[];
}

/** Branch protection as stored: the PUT body (spec endpoint 1) with its checks and rules applied. */
export interface Protection {
  required_status_checks: {
    strict: boolean;
    checks: { context: string; app_id: number | null }[];
  } | null;
  enforce_admins: boolean;
  required_pull_request_reviews: {
    dismiss_stale_reviews: boolean;
    require_code_owner_reviews: boolean;
    required_approving_review_count: number;
    require_last_push_approval: boolean;
    dismissal_restrictions: Principals | null;
    bypass_pull_request_allowances: Principals | null;
  } | null;
  restrictions: Principals | null;
  required_signatures: boolean;
  required_linear_history: boolean;
  allow_force_pushes: boolean;
  allow_deletions: boolean;
  block_creations: boolean;
  required_conversation_resolution: boolean;
  lock_branch: boolean;
  allow_fork_syncing: boolean;
}

/** A branch's protection; null when it has none. */
const protections = attached((_branch: Branch) => ({ protection: null as Protection | null }));

export function protectionOf(branch: Branch): Protection | null {
  return protections(branch).protection;
}

export function setProtection(branch: Branch, protection: Protection | null): void {
  protections(branch).protection = protection;
}

/** Which app last reported each status check: required checks without an app_id are bound to it. */
export const recentChecksOf = attached((_repo: Repository) => new Map<string, number>());
