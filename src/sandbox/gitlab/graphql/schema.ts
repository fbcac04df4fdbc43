import { buildSchema, type GraphQLSchema } from "graphql";

/**
 * A subset of GitLab's GraphQL schema, as SDL: the types forgeplan's bulk reads ask for and the
 * sandbox serves. GitLab no longer commits `gitlab_schema.graphql` (the copies in gitlabhq/gitlabhq
 * are from 2020–21, before `branchRules` and `ciVariables`); the reference it publishes instead is
 * doc/api/graphql/reference/_index.md in gitlabhq/gitlabhq at commit
 * 0016ea0586afbe89b5823f3fc254045ce7115af2 (GitLab 17.10 or later: the newest "Introduced in"
 * entries read there are 17.10's), generated from the schema by `rake gitlab:graphql:compile_docs`.
 *
 * It is a SUBSET: only the fields and arguments listed here; every description is left out. Each
 * field, argument and type below was checked, name, type and nullability, against its section of
 * the reference at that commit: `Query.project(fullPath:)`, `Query.queryComplexity`,
 * `QueryComplexity`, `Project` (`id`, `fullPath`, `path`, `name`, `archived`, `branchRules`,
 * `ciVariables(sort:)`, `labels(includeAncestorGroups:, searchIn:, searchTerm:, title:)`,
 * `projectMembers(relations:, search:)`), `Label`, `LabelConnection` (less its `edges`),
 * `LabelSearchFieldList`, `BranchRule`,
 * `BranchProtection`, `MergeAccessLevel`, `PushAccessLevel`, `AccessLevelUser`,
 * `AccessLevelGroup`, `AccessLevelDeployKey`, `CiProjectVariable`, `MemberInterface` (with its
 * implementations `ProjectMember` and `GroupMember`, which here carry the interface's fields
 * only), `AccessLevel`, `BranchRuleConnection`, `MergeAccessLevelConnection`,
 * `CiProjectVariableConnection`, `MemberInterfaceConnection`, and the enums `AccessLevelEnum`,
 * `CiVariableSort`, `CiVariableType`, `ProjectMemberRelation`, and `UserCore` (`id`, `name`,
 * `username`).
 *
 * NOT checked at that commit (written as GitLab's Relay connections are; the first to check):
 * `PageInfo`, `UnprotectAccessLevel`, `PushAccessLevelConnection`,
 * `UnprotectAccessLevelConnection`, and the defaults of arguments (the reference does not show
 * them; `labels(searchIn:)`'s, `[TITLE, DESCRIPTION]`, is the `default_value: [:title,
 * :description]` of app/graphql/resolvers/labels_resolver.rb at gitlabhq/gitlabhq 0e3af7b0).
 * Left out on purpose: `Project.branchRules(buildMissing:)` (the sandbox builds no unpersisted
 * rules) and `Project.projectMembers(sort:)` (`MemberSort`'s values were not read).
 * There is no `memberRole` on `MemberInterface` or `ProjectMember`, and no `accessLevels`
 * argument on `projectMembers`, at that commit.
 * Data, not code: the sandbox serves it and the tests validate every query the engine sends
 * against it (graphql's `validate`).
 */
export const GITLAB_SCHEMA_SDL = `
schema { query: Query }

scalar Time
scalar Date
scalar UserID
scalar ProjectsBranchRuleID
scalar LabelID

type Query {
  project(fullPath: ID!): Project
  queryComplexity: QueryComplexity
}

type QueryComplexity {
  limit: Int
  score: Int
}

type Project {
  id: ID!
  fullPath: ID!
  path: String!
  name: String!
  archived: Boolean
  branchRules(after: String, before: String, first: Int, last: Int): BranchRuleConnection
  ciVariables(sort: CiVariableSort, after: String, before: String, first: Int, last: Int): CiProjectVariableConnection
  labels(
    includeAncestorGroups: Boolean
    searchIn: [LabelSearchFieldList!]! = [TITLE, DESCRIPTION]
    searchTerm: String
    title: String
    after: String
    before: String
    first: Int
    last: Int
  ): LabelConnection
  projectMembers(
    relations: [ProjectMemberRelation!]
    search: String
    after: String
    before: String
    first: Int
    last: Int
  ): MemberInterfaceConnection
}

type PageInfo {
  endCursor: String
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
}

type BranchRuleConnection {
  nodes: [BranchRule]
  pageInfo: PageInfo!
}

type BranchRule {
  branchProtection: BranchProtection
  createdAt: Time
  id: ProjectsBranchRuleID
  isDefault: Boolean!
  isProtected: Boolean!
  matchingBranchesCount: Int!
  name: String!
  updatedAt: Time
}

type BranchProtection {
  allowForcePush: Boolean!
  codeOwnerApprovalRequired: Boolean!
  mergeAccessLevels(after: String, before: String, first: Int, last: Int): MergeAccessLevelConnection
  pushAccessLevels(after: String, before: String, first: Int, last: Int): PushAccessLevelConnection
  unprotectAccessLevels(after: String, before: String, first: Int, last: Int): UnprotectAccessLevelConnection
}

type MergeAccessLevelConnection {
  nodes: [MergeAccessLevel]
  pageInfo: PageInfo!
}

type PushAccessLevelConnection {
  nodes: [PushAccessLevel]
  pageInfo: PageInfo!
}

type UnprotectAccessLevelConnection {
  nodes: [UnprotectAccessLevel]
  pageInfo: PageInfo!
}

type MergeAccessLevel {
  accessLevel: Int!
  accessLevelDescription: String!
  group: AccessLevelGroup
  user: AccessLevelUser
}

type PushAccessLevel {
  accessLevel: Int!
  accessLevelDescription: String!
  deployKey: AccessLevelDeployKey
  group: AccessLevelGroup
  user: AccessLevelUser
}

type UnprotectAccessLevel {
  accessLevel: Int!
  accessLevelDescription: String!
  group: AccessLevelGroup
  user: AccessLevelUser
}

type AccessLevelUser {
  id: ID!
  name: String!
  username: String!
  webUrl: String!
}

type AccessLevelGroup {
  id: ID!
  name: String!
  webUrl: String!
}

type AccessLevelDeployKey {
  expiresAt: Date
  id: ID!
  title: String!
}

type LabelConnection {
  count: Int!
  nodes: [Label]
  pageInfo: PageInfo!
}

enum LabelSearchFieldList {
  DESCRIPTION
  TITLE
}

type Label {
  color: String!
  createdAt: Time!
  description: String
  descriptionHtml: String
  id: LabelID!
  lockOnMerge: Boolean!
  textColor: String!
  title: String!
  updatedAt: Time!
}

type CiProjectVariableConnection {
  nodes: [CiProjectVariable]
  pageInfo: PageInfo!
}

enum CiVariableSort {
  KEY_ASC
  KEY_DESC
}

enum CiVariableType {
  ENV_VAR
  FILE
}

type CiProjectVariable {
  description: String
  environmentScope: String
  hidden: Boolean
  id: ID!
  key: String
  masked: Boolean
  protected: Boolean
  raw: Boolean
  value: String
  variableType: CiVariableType
}

enum ProjectMemberRelation {
  DESCENDANTS
  DIRECT
  INHERITED
  INVITED_GROUPS
  SHARED_INTO_ANCESTORS
}

enum AccessLevelEnum {
  ADMIN
  DEVELOPER
  GUEST
  MAINTAINER
  MINIMAL_ACCESS
  NO_ACCESS
  OWNER
  PLANNER
  REPORTER
}

type MemberInterfaceConnection {
  nodes: [MemberInterface]
  pageInfo: PageInfo!
}

interface MemberInterface {
  accessLevel: AccessLevel
  createdAt: Time
  expiresAt: Time
  id: ID!
  updatedAt: Time
  user: UserCore
}

type ProjectMember implements MemberInterface {
  accessLevel: AccessLevel
  createdAt: Time
  expiresAt: Time
  id: ID!
  project: Project
  updatedAt: Time
  user: UserCore
}

type GroupMember implements MemberInterface {
  accessLevel: AccessLevel
  createdAt: Time
  expiresAt: Time
  id: ID!
  updatedAt: Time
  user: UserCore
}

type AccessLevel {
  humanAccess: String
  integerValue: Int
  stringValue: AccessLevelEnum
}

type UserCore {
  id: UserID!
  name: String!
  username: String!
}
`;

let built: GraphQLSchema | undefined;

/** The schema, built once per process on the first GraphQL request. */
export function gitlabSchema(): GraphQLSchema {
  built ??= buildSchema(GITLAB_SCHEMA_SDL);
  return built;
}
