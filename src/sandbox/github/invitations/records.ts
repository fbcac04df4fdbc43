import { attached } from "../../core/attached.js";
import type { Account, GithubWorld, Repository } from "../world/records.js";

/** A repository's invitations to collaborate. */

export interface Invitation {
  id: number;
  invitee: Account;
  inviter: Account;
  permissions: "read" | "write" | "admin" | "triage" | "maintain";
  created_at: string;
  expired: boolean;
}

/** A repository's invitations by id. */
export const invitationsOf = attached((_repo: Repository) => new Map<number, Invitation>());

/** The next id of an invitation made by a request. */
export const invitationIds = attached((_world: GithubWorld) => ({ next: 1 }));
