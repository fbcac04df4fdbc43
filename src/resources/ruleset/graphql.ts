import * as z from "zod";
import {
  allNodes,
  type Pages,
  pageOf,
  type RepositoryGraphqlRead,
  repositoryConnection,
  RestAnswers,
} from "../graphql-read.js";
import { repoPath } from "../context.js";
import { RULE_TYPES } from "./rules.js";
import type { Rulesets } from "./settings.js";

/**
 * A repository's own rulesets over GraphQL: `rulesets(includeParents: false)` with each ruleset's
 * bypass actors and rules, turned into what REST answers — the listing of
 * `GET /repos/{owner}/{repo}/rulesets?includes_parents=false` and each ruleset's
 * `GET …/rulesets/{id}`. GraphQL writes enums in capitals and members in camelCase; REST's are the
 * same words in lower case and snake_case.
 *
 * A ruleset is read over REST instead when GraphQL cannot show all of it: bypass actors hidden from
 * the token (REST's answer says so), an actor or bypass mode GitHub's published schema has no room
 * for (a user, an enterprise owner, `exempt`), a rule type forgeplan does not manage (REST's
 * answer is the one that names it), and any `pull_request` rule — the schema's
 * `PullRequestParameters` has no dismissal restriction, no required reviewers and none of the
 * parameters GitHub answers beyond its schema, each of which a write could reset.
 */

const ACTOR = `actor { __typename ... on App { databaseId } ... on Team { databaseId } }
  bypassMode deployKey organizationAdmin enterpriseOwner repositoryRoleDatabaseId`;

const PATTERN = "name negate operator pattern";

const RULE = `type parameters { __typename
  ... on UpdateParameters { updateAllowsFetchAndMerge }
  ... on RequiredStatusChecksParameters { doNotEnforceOnCreate strictRequiredStatusChecksPolicy requiredStatusChecks { context integrationId } }
  ... on MergeQueueParameters { checkResponseTimeoutMinutes groupingStrategy maxEntriesToBuild maxEntriesToMerge mergeMethod minEntriesToMerge minEntriesToMergeWaitMinutes }
  ... on RequiredDeploymentsParameters { requiredDeploymentEnvironments }
  ... on CommitMessagePatternParameters { ${PATTERN} }
  ... on CommitAuthorEmailPatternParameters { ${PATTERN} }
  ... on CommitterEmailPatternParameters { ${PATTERN} }
  ... on BranchNamePatternParameters { ${PATTERN} }
  ... on TagNamePatternParameters { ${PATTERN} }
  ... on CodeScanningParameters { codeScanningTools { tool alertsThreshold securityAlertsThreshold } }
  ... on WorkflowsParameters { doNotEnforceOnCreate workflows { path repositoryId ref sha } }
  ... on FilePathRestrictionParameters { restrictedFilePaths }
  ... on MaxFileSizeParameters { maxFileSize }
  ... on FileExtensionRestrictionParameters { restrictedFileExtensions }
  ... on MaxFilePathLengthParameters { maxFilePathLength } }`;

const FRAGMENTS = `fragment RulesetFields on RepositoryRuleset {
  id databaseId name target enforcement conditions { refName { include exclude } }
  bypassActors(first: 100) { ${pageOf(ACTOR)} }
  rules(first: 100) { ${pageOf(RULE)} }
}`;

const page = z.looseObject({
  pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  nodes: z.array(z.unknown()),
});

const ruleset = z.looseObject({
  id: z.string(),
  databaseId: z.number().int(),
  name: z.string(),
  target: z.string().nullable(),
  enforcement: z.string(),
  conditions: z.looseObject({
    refName: z
      .looseObject({ include: z.array(z.string()), exclude: z.array(z.string()) })
      .nullable(),
  }),
  bypassActors: page.nullable(),
  rules: page.nullable(),
});
type GraphqlRuleset = z.infer<typeof ruleset>;

const actor = z.looseObject({
  actor: z
    .looseObject({ __typename: z.string(), databaseId: z.number().int().nullish() })
    .nullable(),
  bypassMode: z.enum(["ALWAYS", "PULL_REQUEST"]),
  deployKey: z.boolean(),
  organizationAdmin: z.boolean(),
  enterpriseOwner: z.boolean(),
  repositoryRoleDatabaseId: z.number().int().nullable(),
});

const rule = z.looseObject({
  type: z.string(),
  parameters: z.record(z.string(), z.unknown()).nullable(),
});

/** GraphQL's rule types forgeplan manages, but `pull_request` (see above): REST's word for each. */
const RULES = new Map(
  RULE_TYPES.filter((type) => type !== "pull_request").map((type) => [type.toUpperCase(), type]),
);

const snake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** GraphQL's parameters as REST writes them: snake_case members, without `__typename`. */
function restParameters(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restParameters);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "__typename")
      .map(([key, inner]) => [snake(key), restParameters(inner)]),
  );
}

/** REST's bypass actor for a GraphQL one; undefined when REST would name one GraphQL cannot. */
function restActor(node: unknown) {
  const parsed = actor.safeParse(node);
  if (!parsed.success || parsed.data.enterpriseOwner) return undefined;
  const {
    actor: member,
    bypassMode,
    deployKey,
    organizationAdmin,
    repositoryRoleDatabaseId,
  } = parsed.data;
  const bypass_mode = bypassMode === "ALWAYS" ? "always" : "pull_request";
  if (organizationAdmin) return { actor_id: null, actor_type: "OrganizationAdmin", bypass_mode };
  if (deployKey) return { actor_id: null, actor_type: "DeployKey", bypass_mode };
  if (repositoryRoleDatabaseId !== null) {
    return { actor_id: repositoryRoleDatabaseId, actor_type: "RepositoryRole", bypass_mode };
  }
  const id = member?.databaseId;
  if (typeof id !== "number") return undefined;
  if (member?.__typename === "App") return { actor_id: id, actor_type: "Integration", bypass_mode };
  if (member?.__typename === "Team") return { actor_id: id, actor_type: "Team", bypass_mode };
  return undefined;
}

function restRule(node: unknown) {
  const parsed = rule.safeParse(node);
  const type = parsed.success ? RULES.get(parsed.data.type) : undefined;
  if (!parsed.success || type === undefined) return undefined;
  const parameters = parsed.data.parameters;
  return parameters === null ? { type } : { type, parameters: restParameters(parameters) };
}

/** The Repository ruleset REST answers; undefined when GraphQL cannot show all of it. */
async function restRuleset(value: GraphqlRuleset, pages: Pages) {
  if (value.bypassActors === null || value.rules === null) return undefined;
  const more = (field: string, nodes: string) => (after: string) =>
    pages.rest({ on: { node: value.id, type: "RepositoryRuleset" }, field, nodes, after });
  const [actorNodes, ruleNodes] = await Promise.all([
    allNodes(value.bypassActors, () => false, more("bypassActors", ACTOR)),
    allNodes(value.rules, () => false, more("rules", RULE)),
  ]);
  if (actorNodes === undefined || ruleNodes === undefined) return undefined;
  if (actorNodes.failed.size + ruleNodes.failed.size > 0) return undefined;
  const actors = actorNodes.nodes.map(restActor);
  const rules = ruleNodes.nodes.map(restRule);
  if (actors.includes(undefined) || rules.includes(undefined) || value.target === null) {
    return undefined;
  }
  const refName = value.conditions.refName;
  return {
    id: value.databaseId,
    name: value.name,
    target: value.target.toLowerCase(),
    source_type: "Repository",
    enforcement: value.enforcement.toLowerCase(),
    bypass_actors: actors,
    conditions: refName ? { ref_name: { include: refName.include, exclude: refName.exclude } } : {},
    rules,
  };
}

const LISTED = { includes_parents: "false" };

export const rulesetGraphql: RepositoryGraphqlRead<Rulesets> = {
  fragments: FRAGMENTS,
  select: ({ value }) => {
    const named = Object.keys(value).length;
    if (named === 0) return undefined;
    // As many as are configured fit the first page; more are read by follow-up queries.
    const first = Math.min(100, named);
    return `rulesets(first: ${first}, includeParents: false) { ${pageOf("...RulesetFields")} }`;
  },
  answer: async (part) => {
    const { repo, pages } = part;
    const answers = new RestAnswers();
    const all = await repositoryConnection(part, "rulesets", {
      field: "rulesets(includeParents: false)",
      nodes: "...RulesetFields",
      fragments: FRAGMENTS,
    });
    // The listing needs every ruleset's id and name; one it cannot show leaves it to REST.
    const parsed = z.array(ruleset).safeParse(all?.nodes);
    if (all === undefined || !parsed.success) return answers;
    const base = `${repoPath(repo)}/rulesets`;
    answers.listed(
      base,
      parsed.data.map((item) => ({
        id: item.databaseId,
        name: item.name,
        source_type: "Repository",
      })),
      LISTED,
    );
    await Promise.all(
      parsed.data.map(async (item, index) => {
        if (all.failed.has(index)) return;
        const body = await restRuleset(item, pages);
        if (body !== undefined) answers.found(`${base}/${item.databaseId}`, body);
      }),
    );
    return answers;
  },
};
