import { repoPath, type RepoRef } from "../context.js";

/** Where a branch's classic protection is read, written and deleted. */
export function protectionPath(repo: RepoRef, branch: string): string {
  return `${repoPath(repo)}/branches/${encodeURIComponent(branch)}/protection`;
}
