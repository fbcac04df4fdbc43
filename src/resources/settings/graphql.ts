import * as z from "zod";
import { repoPath } from "../context.js";
import {
  pageOf,
  type RepositoryGraphqlRead,
  repositoryConnection,
  RestAnswers,
} from "../graphql-read.js";
import type { RepositorySettings } from "./settings.js";

/**
 * A repository's settings over GraphQL: the `Repository` fields that stand for `GET
 * /repos/{owner}/{repo}` (GitHub's Full Repository) as far as the planner and the repository's
 * locating read use it, and `hasVulnerabilityAlertsEnabled` for `GET …/vulnerability-alerts`.
 *
 * What GraphQL cannot show stays on REST (docs/service-decisions.md, "settings over GraphQL"):
 * - `security_and_analysis`: GitHub's schema has no such field, so a value that writes it reads the
 *   whole Full Repository over REST (one read either way: answering the rest of it over GraphQL
 *   would save nothing);
 * - `previously`: locating a renamed repository tells the repository from one that took its old
 *   name by the redirect REST follows; a value that lists previous names is located over REST;
 * - automated security fixes and private vulnerability reporting: the schema has neither;
 * - a repository the credential does not administer (`viewerCanAdminister` false): REST shows
 *   such a caller no `security_and_analysis` and refuses the toggles' reads, which GraphQL would not
 *   say alike, so all of it is read over REST;
 * - an empty repository (`defaultBranchRef` null) still has a default branch name over REST.
 * A part with any error is left to REST whole.
 */

const REPOSITORY = [
  "databaseId name nameWithOwner owner { login } isPrivate isArchived visibility",
  "description homepageUrl defaultBranchRef { name }",
  "hasIssuesEnabled hasProjectsEnabled hasWikiEnabled isTemplate forkingAllowed",
  "mergeCommitAllowed squashMergeAllowed rebaseMergeAllowed autoMergeAllowed",
  "deleteBranchOnMerge allowUpdateBranch webCommitSignoffRequired",
  "squashMergeCommitTitle squashMergeCommitMessage mergeCommitTitle mergeCommitMessage",
].join(" ");

const TOPIC = "topic { name }";

const repository = z.looseObject({
  databaseId: z.number().int(),
  name: z.string(),
  nameWithOwner: z.string(),
  owner: z.looseObject({ login: z.string() }),
  isPrivate: z.boolean(),
  isArchived: z.boolean(),
  visibility: z.enum(["PUBLIC", "PRIVATE", "INTERNAL"]),
  description: z.string().nullable(),
  homepageUrl: z.string().nullable(),
  defaultBranchRef: z.looseObject({ name: z.string() }).nullable(),
  hasIssuesEnabled: z.boolean(),
  hasProjectsEnabled: z.boolean(),
  hasWikiEnabled: z.boolean(),
  isTemplate: z.boolean(),
  forkingAllowed: z.boolean(),
  mergeCommitAllowed: z.boolean(),
  squashMergeAllowed: z.boolean(),
  rebaseMergeAllowed: z.boolean(),
  autoMergeAllowed: z.boolean(),
  deleteBranchOnMerge: z.boolean(),
  allowUpdateBranch: z.boolean(),
  webCommitSignoffRequired: z.boolean(),
  squashMergeCommitTitle: z.string(),
  squashMergeCommitMessage: z.string(),
  mergeCommitTitle: z.string(),
  mergeCommitMessage: z.string(),
});

const topic = z.looseObject({ topic: z.looseObject({ name: z.string() }) });

/** Whether GraphQL answers the value's read of the Full Repository. */
function readsRepository(value: RepositorySettings): boolean {
  return value.security_and_analysis === undefined && value.previously === undefined;
}

/** Whether the value's plan reads `…/vulnerability-alerts` (./plan.ts `planDependabot`). */
function readsAlerts(value: RepositorySettings): boolean {
  return value.vulnerability_alerts !== undefined || value.automated_security_fixes !== undefined;
}

/** The Full Repository as the planner reads it, from the fields REPOSITORY selects. */
function fullRepository(read: z.infer<typeof repository>, branch: string, topics: string[]) {
  return {
    id: read.databaseId,
    name: read.name,
    full_name: read.nameWithOwner,
    owner: { login: read.owner.login },
    private: read.isPrivate,
    archived: read.isArchived,
    visibility: read.visibility.toLowerCase(),
    description: read.description,
    homepage: read.homepageUrl,
    default_branch: branch,
    topics,
    has_issues: read.hasIssuesEnabled,
    has_projects: read.hasProjectsEnabled,
    has_wiki: read.hasWikiEnabled,
    is_template: read.isTemplate,
    allow_forking: read.forkingAllowed,
    allow_merge_commit: read.mergeCommitAllowed,
    allow_squash_merge: read.squashMergeAllowed,
    allow_rebase_merge: read.rebaseMergeAllowed,
    allow_auto_merge: read.autoMergeAllowed,
    delete_branch_on_merge: read.deleteBranchOnMerge,
    allow_update_branch: read.allowUpdateBranch,
    web_commit_signoff_required: read.webCommitSignoffRequired,
    squash_merge_commit_title: read.squashMergeCommitTitle,
    squash_merge_commit_message: read.squashMergeCommitMessage,
    merge_commit_title: read.mergeCommitTitle,
    merge_commit_message: read.mergeCommitMessage,
  };
}

export const settingsGraphql: RepositoryGraphqlRead<RepositorySettings> = {
  select: ({ value: settings }) => {
    const fields = [
      ...(readsRepository(settings)
        ? [REPOSITORY, `repositoryTopics(first: 100) { ${pageOf(TOPIC)} }`]
        : []),
      ...(readsAlerts(settings) ? ["hasVulnerabilityAlertsEnabled"] : []),
    ];
    return fields.length === 0 ? undefined : `viewerCanAdminister ${fields.join(" ")}`;
  },
  answer: async (part) => {
    const answers = new RestAnswers();
    const settings = part.value;
    const admin = z.looseObject({ viewerCanAdminister: z.literal(true) }).safeParse(part.data);
    if (part.failed([]) || !admin.success) return answers;
    const path = repoPath(part.repo);
    if (readsAlerts(settings)) {
      const alerts = z
        .looseObject({ hasVulnerabilityAlertsEnabled: z.boolean() })
        .safeParse(part.data);
      if (!alerts.success) return answers;
      // REST: 204 without a body when they are on, a 404 without one (read as "Not Found") if not.
      if (alerts.data.hasVulnerabilityAlertsEnabled)
        answers.found(`${path}/vulnerability-alerts`, undefined);
      else answers.absent(`${path}/vulnerability-alerts`, "Not Found");
    }
    if (!readsRepository(settings)) return answers;
    const read = repository.safeParse(part.data);
    if (!read.success || read.data.defaultBranchRef === null) return answers;
    const all = await repositoryConnection(part, "repositoryTopics", {
      field: "repositoryTopics",
      nodes: TOPIC,
    });
    const topics = z.array(topic).safeParse(all?.nodes);
    if (all === undefined || all.failed.size > 0 || !topics.success) return answers;
    answers.found(
      path,
      fullRepository(
        read.data,
        read.data.defaultBranchRef.name,
        topics.data.map((item) => item.topic.name),
      ),
    );
    return answers;
  },
};
