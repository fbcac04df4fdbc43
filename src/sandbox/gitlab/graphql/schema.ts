import { buildSchema, type GraphQLSchema } from "graphql";

/**
 * A subset of GitLab's GraphQL schema, as SDL: the types forgeplan's bulk reads ask for and the
 * sandbox serves. GitLab no longer commits `gitlab_schema.graphql` (the copies in gitlabhq/gitlabhq
 * are from 2020–21, before `branchRules` and `ciVariables`); the reference it publishes instead is
 * doc/api/graphql/reference/_index.md in gitlabhq/gitlabhq at commit
 * 0016ea0586afbe89b5823f3fc254045ce7115af2 (GitLab 17.10 or later: the newest "Introduced in"
 * entries read there are 17.10's), generated from the schema by `rake gitlab:graphql:compile_docs`.
 *
 * It is a SUBSET: only the fields listed here; every description is left out. `BranchRule`,
 * `BranchProtection` and `CiProjectVariable` are copied field for field from their sections of the
 * reference at that commit. The rest — `Query.project(fullPath:)`, `Query.queryComplexity`,
 * `Project`'s connections and their arguments, `MemberInterface`/`ProjectMember`/`GroupMember`
 * (with `memberRole`), `AccessLevel`, the access-level types, `UserCore`, the enums and the
 * connection types — are written as GitLab documents them but were not re-read at that commit
 * (the look-ups for this work ran out): they are the first to check against the reference.
 * Data, not code: the sandbox serves it and the tests validate every query the engine sends
 * against it (graphql's `validate`).
 */
export const GITLAB_SCHEMA_SDL = `
schema { query: Query }

scalar Time
scalar Date
scalar UserID
scalar ProjectsBranchRuleID
scalar MemberRoleID

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
  branchRules(after: String, before: String, first: Int, last: Int): BranchRuleConnection!
  ciVariables(sort: CiVariableSort, after: String, before: String, first: Int, last: Int): CiProjectVariableConnection
  projectMembers(
    search: String
    relations: [ProjectMemberRelation!] = [DIRECT, INHERITED]
    sort: MemberSort
    accessLevels: [AccessLevelEnum!]
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
  count: Int!
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
  id: UserID!
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
  DIRECT
  INHERITED
  DESCENDANTS
  INVITED_GROUPS
  SHARED_INTO_ANCESTORS
}

enum MemberSort {
  ACCESS_LEVEL_ASC
  ACCESS_LEVEL_DESC
  USER_FULL_NAME_ASC
  USER_FULL_NAME_DESC
  CREATED_ASC
  CREATED_DESC
}

enum AccessLevelEnum {
  NO_ACCESS
  MINIMAL_ACCESS
  GUEST
  PLANNER
  REPORTER
  DEVELOPER
  MAINTAINER
  OWNER
  ADMIN
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
  memberRole: MemberRole
  updatedAt: Time
  user: UserCore
}

type ProjectMember implements MemberInterface {
  accessLevel: AccessLevel
  createdAt: Time
  expiresAt: Time
  id: ID!
  memberRole: MemberRole
  project: Project
  updatedAt: Time
  user: UserCore
}

type GroupMember implements MemberInterface {
  accessLevel: AccessLevel
  createdAt: Time
  expiresAt: Time
  id: ID!
  memberRole: MemberRole
  updatedAt: Time
  user: UserCore
}

type AccessLevel {
  humanAccess: String
  integerValue: Int
  stringValue: AccessLevelEnum
}

type MemberRole {
  id: MemberRoleID!
  name: String!
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
