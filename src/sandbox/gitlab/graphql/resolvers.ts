import { SEEDED_AT } from "../../core/seed.js";
import type { RequestContext } from "../http.js";
import { premium } from "../protected-refs/routes.js";
import { accessEntry } from "../protected-refs/shapes.js";
import { type AccessEntry, protectedBranchesOf } from "../protected-refs/records.js";
import { textColorOf } from "../labels/colors.js";
import { groupsFrom, type Label, labelsOf } from "../labels/records.js";
import { byTitle, labelBasicShape } from "../labels/shapes.js";
import { type CiVariable, variablesOf } from "../variables/records.js";
import { canSeeProject } from "../world/access.js";
import { ACCESS_LEVELS, accessLevelOf } from "../world/access-levels.js";
import { type Membership, membershipExpiry, type Project, type User } from "../world/records.js";
import { connection, type PageArgs } from "./connection.js";

/**
 * The values `execute` reads: plain objects whose function properties resolve a field with its
 * arguments (graphql-js's default resolver). Permissions are REST's: a project the caller cannot
 * see is null (GitLab's `project(fullPath:)` answers null, no error); its CI/CD variables take the
 * Maintainer role as REST's listing does (null otherwise); its members, labels and protected
 * branches are shown to whoever sees the project and, for branch rules, has the Developer role.
 */

const gid = (model: string, id: number | string) => `gid://gitlab/${model}/${id}`;

/** A variable's id: a sequence in the order first seen, which is the order each place holds them. */
const variableIds = new WeakMap<CiVariable, number>();
let lastVariableId = 0;
function variableId(variable: CiVariable): number {
  let id = variableIds.get(variable);
  if (id === undefined) {
    id = ++lastVariableId;
    variableIds.set(variable, id);
  }
  return id;
}

function variableNode(variable: CiVariable) {
  return {
    id: gid("Ci::Variable", variableId(variable)),
    key: variable.key,
    // As REST (app/models/ci/variable_value.rb): a hidden variable's value is never shown again.
    value: variable.hidden ? null : variable.value,
    variableType: variable.variable_type === "file" ? "FILE" : "ENV_VAR",
    protected: variable.protected,
    masked: variable.masked,
    hidden: variable.hidden,
    raw: variable.raw,
    environmentScope: variable.environment_scope,
    description: variable.description,
  };
}

function accessLevel(level: number) {
  const known = ACCESS_LEVELS.find((entry) => entry.level === level) ?? ACCESS_LEVELS[0];
  return {
    integerValue: level,
    stringValue: known.role.toUpperCase(),
    humanAccess: known.name,
  };
}

function userNode(user: User) {
  return { id: gid("User", user.id), username: user.username, name: user.name ?? user.username };
}

function memberNode(project: Project, membership: Membership) {
  const source = membership.source ?? project;
  return {
    __typename: membership.source === undefined ? "ProjectMember" : "GroupMember",
    id: gid(
      membership.source === undefined ? "ProjectMember" : "GroupMember",
      `${source.id}-${membership.user.id}`,
    ),
    accessLevel: accessLevel(accessLevelOf(membership.role)),
    createdAt: SEEDED_AT,
    updatedAt: SEEDED_AT,
    // A membership's end is a date; GitLab's Time shows it at midnight UTC.
    expiresAt: membership.expiresAt === null ? null : `${membership.expiresAt}T00:00:00Z`,
    user: userNode(membership.user),
  };
}

/**
 * Members by relation (MembersFinder): DIRECT the project's own, INHERITED the groups' above it;
 * a user in both once, with the highest level (`distinct_on` ordered by access level), by user id.
 */
function membersOf(ctx: RequestContext, project: Project, relations: readonly string[]) {
  const found: Membership[] = [];
  if (relations.includes("DIRECT")) {
    for (const [id, role] of project.members) {
      const user = ctx.world.users.get(id);
      const expiresAt = membershipExpiry(project).get(id) ?? null;
      if (user !== undefined) found.push({ user, role, source: undefined, expiresAt });
    }
  }
  if (relations.includes("INHERITED")) found.push(...ctx.world.groupMemberships(project.group));
  const best = new Map<number, Membership>();
  for (const membership of found) {
    const known = best.get(membership.user.id);
    if (known === undefined || accessLevelOf(membership.role) > accessLevelOf(known.role)) {
      best.set(membership.user.id, membership);
    }
  }
  return [...best.values()].sort((a, b) => a.user.id - b.user.id);
}

function accessNode(ctx: RequestContext, entry: AccessEntry) {
  const shown = accessEntry(entry, premium(ctx.world));
  const { grantee } = entry;
  return {
    accessLevel: typeof shown.access_level === "number" ? shown.access_level : 40,
    accessLevelDescription: shown.access_level_description,
    user:
      grantee.kind === "user"
        ? { ...userNode(grantee.user), webUrl: `${ctx.base}/${grantee.user.username}` }
        : null,
    group:
      grantee.kind === "group"
        ? {
            id: gid("Group", grantee.group.id),
            name: grantee.group.name,
            webUrl: `${ctx.base}/groups/${grantee.group.fullPath}`,
          }
        : null,
    deployKey:
      grantee.kind === "deploy_key"
        ? { id: gid("DeployKey", grantee.key.id), title: grantee.key.title, expiresAt: null }
        : null,
  };
}

function branchRules(ctx: RequestContext, project: Project, args: PageArgs) {
  const branches = [...protectedBranchesOf(project).values()].sort((a, b) => a.id - b.id);
  return connection(branches, args, (branch) => ({
    id: gid("Projects::BranchRule", branch.id),
    name: branch.name,
    isDefault: branch.name === project.default_branch,
    isProtected: true,
    matchingBranchesCount: 0,
    createdAt: SEEDED_AT,
    updatedAt: SEEDED_AT,
    branchProtection: {
      allowForcePush: branch.allow_force_push,
      codeOwnerApprovalRequired: branch.code_owner_approval_required,
      mergeAccessLevels: (page: PageArgs) =>
        connection(branch.merge, page, (e) => accessNode(ctx, e)),
      pushAccessLevels: (page: PageArgs) =>
        connection(branch.push, page, (e) => accessNode(ctx, e)),
      unprotectAccessLevels: (page: PageArgs) =>
        connection(branch.unprotect, page, (e) => accessNode(ctx, e)),
    },
  }));
}

interface LabelArgs extends PageArgs {
  includeAncestorGroups?: boolean | null;
  searchIn: string[];
  searchTerm?: string | null;
  title?: string | null;
}

/**
 * A project's labels as LabelsFinder finds them for `Project.labels`: its own and its group's, and
 * with `includeAncestorGroups` every group's above it too; `title` an exact match, `searchTerm`
 * within the `searchIn` fields; in REST's order (title, then id). Each id names its model
 * (`gid://gitlab/ProjectLabel/1`, `gid://gitlab/GroupLabel/2`), as GitLab's do.
 */
function labelsOfProject(project: Project, args: LabelArgs) {
  const groups = args.includeAncestorGroups === true ? groupsFrom(project.group) : [project.group];
  const term = args.searchTerm?.toLowerCase();
  const found = [...labelsOf(project), ...groups.flatMap((group) => labelsOf(group))].filter(
    (label) =>
      typeof args.title === "string"
        ? label.title === args.title
        : term === undefined ||
          (args.searchIn.includes("TITLE") && label.title.toLowerCase().includes(term)) ||
          (args.searchIn.includes("DESCRIPTION") &&
            (label.description ?? "").toLowerCase().includes(term)),
  );
  found.sort((a, b) => byTitle(a.title, b.title) || a.id - b.id);
  return connection(found, args, labelNode);
}

function labelNode(label: Label) {
  return {
    id: gid("project" in label.owner ? "ProjectLabel" : "GroupLabel", label.id),
    title: label.title,
    color: label.color,
    description: label.description,
    descriptionHtml: labelBasicShape(label).description_html,
    textColor: textColorOf(label.color),
    lockOnMerge: false,
    createdAt: SEEDED_AT,
    updatedAt: SEEDED_AT,
  };
}

function projectNode(ctx: RequestContext, project: Project) {
  const caller = ctx.caller;
  return {
    id: gid("Project", project.id),
    fullPath: ctx.world.fullPath(project),
    path: project.path,
    name: project.name,
    archived: project.archived,
    ciVariables: (args: PageArgs & { sort?: string | null }) => {
      if (!ctx.world.hasRole(project, caller, "maintainer")) return null;
      const all = [...variablesOf(project)];
      if (args.sort === "KEY_ASC") all.sort((a, b) => a.key.localeCompare(b.key));
      if (args.sort === "KEY_DESC") all.sort((a, b) => b.key.localeCompare(a.key));
      return connection(all, args, variableNode);
    },
    // Without `relations`, MembersFinder's default relations (direct and inherited); the
    // reference (doc/api/graphql/reference, "Project.projectMembers") shows no default.
    projectMembers: (args: PageArgs & { relations?: string[] | null }) =>
      connection(membersOf(ctx, project, args.relations ?? ["DIRECT", "INHERITED"]), args, (m) =>
        memberNode(project, m),
      ),
    labels: (args: LabelArgs) => labelsOfProject(project, args),
    branchRules: (args: PageArgs) =>
      ctx.world.hasRole(project, caller, "developer") ? branchRules(ctx, project, args) : null,
  };
}

/** The root value of a query: the project a caller may see, else null. */
export function queryRoot(ctx: RequestContext, score: { limit: number; score: number }) {
  return {
    project: ({ fullPath }: { fullPath: string }) => {
      const project = ctx.world.project(fullPath);
      if (project === undefined || /^\d+$/.test(fullPath)) return null;
      return canSeeProject(ctx, project, ctx.caller) ? projectNode(ctx, project) : null;
    },
    queryComplexity: () => score,
  };
}
