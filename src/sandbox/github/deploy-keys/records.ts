import { attached } from "../../core/attached.js";
import type { GithubWorld, Repository } from "../world/records.js";

/** A deploy key: GitHub keeps no update for one, only create and delete. */
export interface DeployKey {
  id: number;
  /** `<type> <base64>`, the comment dropped, as GitHub answers it. */
  key: string;
  title: string;
  read_only: boolean;
  created_at: string;
}

/** A repository's deploy keys by id. */
export const deployKeysOf = attached((_repo: Repository) => new Map<number, DeployKey>());

/** Deploy key ids are one sequence across the world. */
export const deployKeyIds = attached((_world: GithubWorld) => ({ next: 1 }));
