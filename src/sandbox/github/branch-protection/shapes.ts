import type { Repository } from "../world/records.js";
import { nodeId } from "../world/shapes.js";
import { protectionOf } from "./records.js";

/** The shapes of branches, which say whether each is protected. */

type Json = Record<string, unknown>;

/** Whether the branch of this name is protected. */
function isProtected(repo: Repository, name: string): boolean {
  const found = repo.branches.get(name);
  return found !== undefined && protectionOf(found) !== null;
}

export function branch(base: string, repo: Repository, name: string): Json {
  const found = repo.branches.get(name);
  const url = `${base}/repos/${repo.owner.login}/${repo.name}`;
  return {
    name,
    commit: { sha: found?.sha, url: `${url}/commits/${found?.sha}` },
    protected: isProtected(repo, name),
    protection_url: `${url}/branches/${encodeURIComponent(name)}/protection`,
  };
}

/**
 * GitHub's Branch With Protection (the answer of a branch rename): the branch, its head commit in
 * the Commit shape, and its protection as the branch read summarizes it.
 */
export function branchWithProtection(base: string, repo: Repository, name: string): Json {
  const found = repo.branches.get(name);
  const url = `${base}/repos/${repo.owner.login}/${repo.name}`;
  const sha = found?.sha ?? "";
  const stamp = repo.updated_at;
  const author = { name: "octo-admin", email: "octo-admin@users.noreply.example", date: stamp };
  return {
    name,
    commit: {
      sha,
      node_id: nodeId("Commit", sha),
      url: `${url}/commits/${sha}`,
      html_url: `${base}/${repo.owner.login}/${repo.name}/commit/${sha}`,
      comments_url: `${url}/commits/${sha}/comments`,
      commit: {
        author,
        committer: author,
        message: "Initial commit",
        tree: { sha, url: `${url}/git/trees/${sha}` },
        url: `${url}/git/commits/${sha}`,
        comment_count: 0,
      },
      author: null,
      committer: null,
      parents: [],
    },
    _links: {
      html: `${base}/${repo.owner.login}/${repo.name}/tree/${encodeURIComponent(name)}`,
      self: `${url}/branches/${encodeURIComponent(name)}`,
    },
    protected: isProtected(repo, name),
    protection: { enabled: isProtected(repo, name) },
    protection_url: `${url}/branches/${encodeURIComponent(name)}/protection`,
  };
}
