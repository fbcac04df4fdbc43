import { attached } from "../../core/attached.js";
import type { GithubWorld, Repository } from "../world/records.js";

/** An autolink reference: GitHub keeps no update for one, only create and delete. */
export interface Autolink {
  id: number;
  key_prefix: string;
  url_template: string;
  is_alphanumeric: boolean;
  updated_at: string;
}

/** A repository's autolinks by id. */
export const autolinksOf = attached((_repo: Repository) => new Map<number, Autolink>());

/** Autolink ids are one sequence across the world. */
export const autolinkIds = attached((_world: GithubWorld) => ({ next: 1 }));
