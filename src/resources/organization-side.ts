import type { RepoRef, ResourceReader } from "./context.js";
import type { RestAnswers } from "./graphql-read.js";

/**
 * A kind's read of many repositories of one organization from the organization's side, in place of
 * one read per repository: the engine (../engine/bulk/) uses it when it plans at least
 * ORGANIZATION_SIDE_MINIMUM repositories of an organization whose values want it and reads are not
 * `rest`, and answers the repositories' own reads with what it returns (as with GraphQL's answers,
 * the planner is the same code whichever way its state was read). A repository it leaves
 * unanswered is read on its own, as is every repository when it answers nothing.
 */
export interface OrganizationSideRead<V = unknown> {
  /** Whether the plan of this value makes the reads it answers. */
  wants(value: V): boolean;
  /** The reads of one repository it answers, keyed as `RestAnswers` keys them (`listKey`). */
  keys(repo: RepoRef): string[];
  /**
   * The REST answers of these repositories of `org` (the repositories' paths only), read from the
   * organization's side; none for a repository it cannot answer exactly, and none at all when it
   * would not save requests.
   */
  read(reader: ResourceReader, org: string, repos: readonly RepoRef[]): Promise<RestAnswers>;
}

/** A team's listing holds up to 100 repositories a page: fewer repositories are read on their own. */
export const ORGANIZATION_SIDE_MINIMUM = 100;
