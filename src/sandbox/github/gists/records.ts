import { attached } from "../../core/attached.js";
import type { Account, GithubWorld } from "../world/records.js";

export interface GistFile {
  content: string;
  language: string | null;
}

export interface Gist {
  id: string;
  owner: Account;
  public: boolean;
  description: string | null;
  files: Map<string, GistFile>;
  created_at: string;
  updated_at: string;
}

/** Every gist in seed order, and each account's by account id. */
export const gistsOf = attached((_world: GithubWorld) => ({
  all: [] as Gist[],
  byOwner: new Map<number, Gist[]>(),
}));
