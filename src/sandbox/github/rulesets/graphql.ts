import { teamsOf } from "../team/records.js";
import {
  type BypassActor,
  type Conditions,
  organizationRulesetsOf,
  repositoryRulesetsOf,
  type Rule,
  type Ruleset,
} from "./records.js";
import type { Repository } from "../world/records.js";
import { rulesetsOf } from "./match.js";
import { REPOSITORY_ROLES } from "./model.js";
import { canEdit } from "./shapes.js";
import { connection, type PageArgs } from "../graphql/connection.js";
import type { GraphqlContext, GraphqlPart } from "../graphql/context.js";
import { nodeId } from "../graphql/ids.js";
import { accountObject, appObject, teamObject } from "../graphql/resolvers/actors.js";

/**
 * `Repository.rulesets`, `Repository.ruleset` and the `RepositoryRuleset` type over the rulesets the
 * REST routes keep (../rulesets/). GraphQL names enums in capitals (`BRANCH`, `ACTIVE`,
 * `NON_FAST_FORWARD`) and members in camelCase where REST writes snake_case; each rule's
 * parameters are the type the schema's `RuleParameters` union names for it. Only the members that
 * type has are answered: the published schema has no `dismissal_restriction` or
 * `required_reviewers` among `PullRequestParameters`, no `User` in the `BypassActor` union and no
 * `EXEMPT` bypass mode, so those are not seen over GraphQL (a value GraphQL cannot represent is an
 * error at its field, as graphql-js reports it).
 */

const PARAMETER_TYPES: Readonly<Record<string, string>> = {
  update: "UpdateParameters",
  merge_queue: "MergeQueueParameters",
  required_deployments: "RequiredDeploymentsParameters",
  pull_request: "PullRequestParameters",
  required_status_checks: "RequiredStatusChecksParameters",
  commit_message_pattern: "CommitMessagePatternParameters",
  commit_author_email_pattern: "CommitAuthorEmailPatternParameters",
  committer_email_pattern: "CommitterEmailPatternParameters",
  branch_name_pattern: "BranchNamePatternParameters",
  tag_name_pattern: "TagNamePatternParameters",
  workflows: "WorkflowsParameters",
  code_scanning: "CodeScanningParameters",
  file_path_restriction: "FilePathRestrictionParameters",
  max_file_path_length: "MaxFilePathLengthParameters",
  file_extension_restriction: "FileExtensionRestrictionParameters",
  max_file_size: "MaxFileSizeParameters",
};

/** Members REST may leave out that GraphQL types as non-null, with the value GitHub means by it. */
const DEFAULTS: Readonly<Record<string, Record<string, unknown>>> = {
  RequiredStatusChecksParameters: { doNotEnforceOnCreate: false },
  WorkflowsParameters: { doNotEnforceOnCreate: false },
  CommitMessagePatternParameters: { negate: false, name: null },
  CommitAuthorEmailPatternParameters: { negate: false, name: null },
  CommitterEmailPatternParameters: { negate: false, name: null },
  BranchNamePatternParameters: { negate: false, name: null },
  TagNamePatternParameters: { negate: false, name: null },
};

const camel = (key: string) =>
  key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** REST's snake_case members as GraphQL's camelCase, all the way down. */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [camel(key), camelKeys(inner)]),
  );
}

function parametersOf(rule: Rule) {
  const typename = PARAMETER_TYPES[rule.type];
  if (typename === undefined || rule.parameters === undefined) return null;
  return {
    __typename: typename,
    ...DEFAULTS[typename],
    ...(camelKeys(rule.parameters) as Record<string, unknown>),
  };
}

function conditionsOf(value: Conditions | null) {
  const names = (patterns: { include: string[]; exclude: string[] } | undefined) =>
    patterns ? { include: patterns.include, exclude: patterns.exclude } : null;
  return {
    refName: names(value?.ref_name),
    repositoryName: value?.repository_name
      ? { ...names(value.repository_name), protected: value.repository_name.protected }
      : null,
    repositoryProperty: value?.repository_property ? camelKeys(value.repository_property) : null,
    repositoryId: value?.repository_id
      ? { repositoryIds: value.repository_id.repository_ids.map((id) => nodeId("Repository", id)) }
      : null,
  };
}

function bypassActorObject(
  ctx: GraphqlContext,
  ruleset: Ruleset,
  actor: BypassActor,
  index: number,
) {
  const org = ruleset.source.type === "Organization" ? ruleset.source.org : ruleset.source.repo.org;
  let member: Record<string, unknown> | null = null;
  if (actor.actor_type === "Integration" && actor.actor_id !== null) {
    const app = ctx.world.appsById.get(actor.actor_id);
    member = app ? appObject(ctx, app) : null;
  } else if (actor.actor_type === "Team" && org !== null) {
    const team = [...teamsOf(org).values()].find((candidate) => candidate.id === actor.actor_id);
    member = team ? teamObject(ctx, team) : null;
  }
  const role = actor.actor_type === "RepositoryRole" ? actor.actor_id : null;
  return {
    __typename: "RepositoryRulesetBypassActor",
    id: nodeId("RepositoryRulesetBypassActor", `${ruleset.id}:${index}`),
    actor: member,
    bypassMode: actor.bypass_mode.toUpperCase(),
    deployKey: actor.actor_type === "DeployKey",
    organizationAdmin: actor.actor_type === "OrganizationAdmin",
    enterpriseOwner: false,
    repositoryRoleDatabaseId: role,
    repositoryRoleName: role === null ? null : (REPOSITORY_ROLES.get(role) ?? null),
  };
}

export function rulesetObject(ctx: GraphqlContext, ruleset: Ruleset) {
  const id = nodeId("RepositoryRuleset", ruleset.id);
  const source = ruleset.source;
  return {
    __typename: "RepositoryRuleset",
    id,
    databaseId: ruleset.id,
    name: ruleset.name,
    target: ruleset.target.toUpperCase(),
    enforcement: ruleset.enforcement.toUpperCase(),
    conditions: conditionsOf(ruleset.conditions),
    createdAt: ruleset.created_at,
    updatedAt: ruleset.updated_at,
    source:
      source.type === "Repository"
        ? {
            __typename: "Repository",
            id: nodeId("Repository", source.repo.id),
            name: source.repo.name,
            nameWithOwner: `${source.repo.owner.login}/${source.repo.name}`,
          }
        : accountObject(ctx, source.org.account),
    // Shown only to who may edit the ruleset, as the REST read shows `bypass_actors` (its spec).
    bypassActors: (args: PageArgs) =>
      canEdit(ctx.world, ruleset, ctx.caller)
        ? connection("bypassActors", ruleset.bypass_actors, args, (actor) =>
            bypassActorObject(ctx, ruleset, actor, ruleset.bypass_actors.indexOf(actor)),
          )
        : null,
    rules: (args: PageArgs & { type?: string | null }) => {
      const wanted = args.type ?? undefined;
      const rules = ruleset.rules.filter(
        (rule) => wanted === undefined || rule.type.toUpperCase() === wanted,
      );
      return connection("rules", rules, args, (rule) => ({
        __typename: "RepositoryRule",
        id: nodeId("RepositoryRule", `${ruleset.id}:${rule.type}`),
        type: rule.type.toUpperCase(),
        parameters: parametersOf(rule),
        repositoryRuleset: { __typename: "RepositoryRuleset", id },
      }));
    },
  };
}

/** The fields of Repository this area answers. `includeParents` defaults to true, as over REST. */
export function rulesetFields(ctx: GraphqlContext, repo: Repository) {
  const rulesets = (includeParents: boolean | null | undefined, targets?: string[] | null) =>
    rulesetsOf(repo, includeParents !== false).filter(
      (ruleset) => !targets || targets.includes(ruleset.target.toUpperCase()),
    );
  return {
    rulesets: (args: PageArgs & { includeParents?: boolean | null; targets?: string[] | null }) =>
      connection("rulesets", rulesets(args.includeParents, args.targets), args, (ruleset) =>
        rulesetObject(ctx, ruleset),
      ),
    ruleset: (args: { databaseId: number; includeParents?: boolean | null }) => {
      const found = rulesets(args.includeParents).find((ruleset) => ruleset.id === args.databaseId);
      return found ? rulesetObject(ctx, found) : null;
    },
  };
}

/**
 * A ruleset by id: a repository's, seen by who can see the repository; an organization's, by who
 * can see a repository it applies to.
 */
function rulesetNode(ctx: GraphqlContext, key: string): unknown {
  const { world, caller } = ctx;
  const wanted = Number(key);
  for (const org of world.organizations.values()) {
    const found = organizationRulesetsOf(org).get(wanted);
    if (
      found &&
      (world.repositoriesByOwner.get(org.account.login.toLowerCase()) ?? []).some(
        (repo) => world.can(repo, caller, "pull") && rulesetsOf(repo, true).includes(found),
      )
    ) {
      return rulesetObject(ctx, found);
    }
  }
  for (const repo of world.repositories.values()) {
    const found = repositoryRulesetsOf(repo).get(wanted);
    if (found) return world.can(repo, caller, "pull") ? rulesetObject(ctx, found) : null;
  }
  return null;
}

/** This area's part of the schema: `Repository.rulesets` and rulesets by id. */
export const rulesetGraphql: GraphqlPart = {
  repository: rulesetFields,
  nodes: { RepositoryRuleset: rulesetNode },
};
