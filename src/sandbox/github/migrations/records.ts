import { attached } from "../../core/attached.js";
import type { Account, GithubWorld, Repository } from "../world/records.js";

export type MigrationState = "pending" | "exporting" | "exported" | "failed";

export interface Migration {
  id: number;
  owner: Account;
  state: MigrationState;
  lock_repositories: boolean;
  exclude_metadata: boolean;
  exclude_git_data: boolean;
  exclude_attachments: boolean;
  exclude_releases: boolean;
  exclude_owner_projects: boolean;
  org_metadata_only: boolean;
  repositories: Repository[];
  created_at: string;
  updated_at: string;
}

/** Migrations by id. */
export const migrationsOf = attached((_world: GithubWorld) => new Map<number, Migration>());
