import { repoPath } from "../context.js";
import { getKey, RestAnswers } from "../graphql-read.js";
import type { OrganizationSideRead } from "../organization-side.js";
import { REPOSITORY_VALUES_SHAPE } from "./canonical.js";
import type { PropertyValues } from "./settings.js";

/**
 * The values of many repositories of one organization, read from the organization's side:
 * `GET /orgs/{org}/properties/values` lists every repository's values, 100 repositories a page,
 * in the shape each repository's own `GET /repos/{owner}/{repo}/properties/values` answers them
 * (the spec's Organization Repository Custom Property Values hold the same Custom Property Value
 * items), where those take a request per repository. A repository the listing does not show is
 * read on its own; a listing that fails, or one longer than the repositories planned, answers none.
 */

const PAGE = 100;

const valuesOf = (repo: { owner: string; name: string }) => `${repoPath(repo)}/properties/values`;

export const valuesFromOrganization: OrganizationSideRead<PropertyValues> = {
  wants: (value) => Object.keys(value).length > 0,
  keys: (repo) => [getKey(valuesOf(repo), undefined)],
  read: async (reader, org, repos) => {
    const answers = new RestAnswers();
    const path = `/orgs/${encodeURIComponent(org)}/properties/values`;
    const listed = await reader.list(path, { per_page: PAGE }, REPOSITORY_VALUES_SHAPE);
    if (listed.kind !== "found") return answers;
    const byName = new Map(listed.data.map((repo) => [repo.repository_name.toLowerCase(), repo]));
    for (const repo of repos) {
      const found = byName.get(repo.name.toLowerCase());
      if (found !== undefined) answers.found(valuesOf(repo), found.properties);
    }
    return answers;
  },
};
