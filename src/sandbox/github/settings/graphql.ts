import type { Repository } from "../world/records.js";
import { connection, type PageArgs } from "../graphql/connection.js";
import type { GraphqlContext, GraphqlPart } from "../graphql/context.js";
import { nodeId } from "../graphql/ids.js";
import { refObject } from "../branch-protection/graphql.js";

/**
 * The `Repository` fields of its own settings, from the same record `GET /repos/{owner}/{repo}` and
 * its sibling endpoints answer from (world/shapes.ts `fullRepository`, settings/routes.ts):
 * the PATCH fields under GraphQL's names, its topics, whether its Dependabot alerts are on, and its
 * default branch — a `Ref`, null while the branch does not exist (an empty repository), where REST
 * still names it.
 */
export function settingsFields(ctx: GraphqlContext, repo: Repository) {
  return {
    homepageUrl: repo.homepage,
    isArchived: repo.archived,
    isTemplate: repo.is_template,
    hasIssuesEnabled: repo.has_issues,
    hasProjectsEnabled: repo.has_projects,
    hasWikiEnabled: repo.has_wiki,
    hasDiscussionsEnabled: repo.has_discussions,
    forkingAllowed: repo.allow_forking,
    autoMergeAllowed: repo.allow_auto_merge,
    deleteBranchOnMerge: repo.delete_branch_on_merge,
    allowUpdateBranch: repo.allow_update_branch,
    webCommitSignoffRequired: repo.web_commit_signoff_required,
    squashMergeCommitTitle: repo.squash_merge_commit_title,
    squashMergeCommitMessage: repo.squash_merge_commit_message,
    mergeCommitTitle: repo.merge_commit_title,
    mergeCommitMessage: repo.merge_commit_message,
    hasVulnerabilityAlertsEnabled: repo.vulnerability_alerts,
    defaultBranchRef: () => {
      const branch = repo.branches.get(repo.default_branch);
      return branch === undefined ? null : refObject(ctx, repo, branch);
    },
    repositoryTopics: (args: PageArgs) =>
      connection("repositoryTopics", repo.topics, args, (topic) => ({
        __typename: "RepositoryTopic",
        id: nodeId("RepositoryTopic", `${repo.id}:${topic}`),
        topic: { __typename: "Topic", id: nodeId("Topic", topic), name: topic },
        url: `${ctx.base}/topics/${topic}`,
        resourcePath: `/topics/${topic}`,
      })),
    viewerCanUpdateTopics: ctx.world.can(repo, ctx.caller, "admin"),
  };
}

/** This area's part of the schema: its fields of `Repository`. */
export const settingsGraphql: GraphqlPart = { repository: settingsFields };
