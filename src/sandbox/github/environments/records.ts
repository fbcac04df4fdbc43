import { attached } from "../../core/attached.js";
import type { Team } from "../team/records.js";
import type { Account, GithubWorld, Repository } from "../world/records.js";

export type EnvironmentReviewer = { type: "User"; user: Account } | { type: "Team"; team: Team };

/** A deployment branch or tag policy of an environment (its custom deployment branch policies). */
export interface BranchPolicy {
  id: number;
  name: string;
  type: "branch" | "tag";
}

/** A deployment environment and its protection rules. */
export interface Environment {
  id: number;
  name: string;
  wait_timer: number;
  prevent_self_review: boolean;
  reviewers: EnvironmentReviewer[];
  /** null: every branch may deploy; "protected": protected branches only; "custom": `policies`. */
  branchPolicy: null | "protected" | "custom";
  policies: Map<number, BranchPolicy>;
  created_at: string;
  updated_at: string;
}

/** A repository's environments by lower-case name: GitHub's environment names are not case-sensitive. */
export const environmentsOf = attached((_repo: Repository) => new Map<string, Environment>());

/** Environment and branch policy ids are sequences across the world. */
export const environmentIds = attached((_world: GithubWorld) => ({
  environment: 1,
  branchPolicy: 1,
}));
