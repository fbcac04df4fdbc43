import type { ForgeClient } from "../../forge/client.js";
import type { CiHost } from "../ci/host.js";
import { reportDriftIssue } from "../drift-issue.js";
import {
  ACTIONS_BOT,
  commentAuthor,
  GITHUB_BODY_LIMIT,
  sameLogin,
  upsertStickyComment,
} from "../sticky-comment.js";
import { reviewedPlan } from "./reviewed-plan.js";

/**
 * GitHub as the CI steps' host (report/ci/host.ts): pull-request comments through the issue
 * endpoints, the merged pull request of a commit, issues. `commentAuthor` is the Action's input of
 * that name: the login its token writes as, when the token cannot say.
 */
export function githubHost(
  client: ForgeClient,
  where: { owner: string; repo: string; commentAuthor?: string },
): CiHost {
  const { owner, repo } = where;
  const author = async () => where.commentAuthor ?? (await commentAuthor(client));
  return {
    changeName: (number) => `pull request #${number}`,
    bodyLimit: GITHUB_BODY_LIMIT,
    async upsertPlanNote(number, marker, body) {
      const writer = await author();
      const result = await upsertStickyComment(
        client,
        { owner, repo, number },
        marker,
        writer,
        body,
      );
      // Without this, every push would add a comment and the apply on merge would find none.
      const warning =
        result.author !== undefined && !sameLogin(result.author, writer)
          ? `the comment was written as ${result.author}, not ${writer}: set comment-author: ${result.author} so the next plan edits it and the apply on merge finds it`
          : undefined;
      return {
        action: result.action,
        url: result.html_url,
        ...(warning !== undefined ? { warning } : {}),
      };
    },
    async reviewedPlan(sha, marker) {
      return await reviewedPlan(client, { owner, repo, sha }, marker, await trustedAuthors());
    },
    async reportDrift(report) {
      const writer = await author();
      const result = await reportDriftIssue(client, { owner, repo, ...report, author: writer });
      // An installation token of another App, given as a token: the next run looks for its issue
      // under the wrong login and would open another.
      const warning =
        result.openedBy !== undefined && !sameLogin(result.openedBy, writer)
          ? `the drift issue was opened as ${result.openedBy}, not ${writer}, so the next run will not find it: sign the target in as the App (app_id and its private key) so forgeplan knows the login it writes as`
          : undefined;
      return {
        action: result.action,
        ...(result.number !== undefined ? { number: result.number } : {}),
        ...(result.html_url !== undefined ? { url: result.html_url } : {}),
        ...(warning !== undefined ? { warning } : {}),
      };
    },
  };

  /**
   * Whose plan comment an apply on merge trusts: `comment-author` if given; else the account its
   * own token writes as, then github-actions[bot]. A plan step often comments with the workflow's
   * own token while the apply needs one that can administer; only this repository's workflows
   * write as that bot, and a pull request from a fork gets a token that cannot comment.
   */
  async function trustedAuthors(): Promise<string[]> {
    if (where.commentAuthor !== undefined) return [where.commentAuthor];
    const own = await commentAuthor(client);
    return sameLogin(own, ACTIONS_BOT) ? [own] : [own, ACTIONS_BOT];
  }
}
