import type { ZodType } from "zod";
import type { ConfigSpec, SelectingScope } from "../config/spec.js";
import type { PlannedRequest } from "../core/plan.js";
import { access } from "./access/index.js";
import { actionsKind } from "./actions/index.js";
import { autolink } from "./autolink/index.js";
import { badgeKind } from "./badge/index.js";
import { boardKind } from "./board/index.js";
import { customPropertyKind } from "./custom-property/index.js";
import { deployKeyKind } from "./deploy-key/index.js";
import { branchProtection } from "./branch-protection/index.js";
import { environment } from "./environment/index.js";
import { epicLinkKind } from "./epic-link/index.js";
import { groupSettingsKind } from "./group-settings/index.js";
import { gistKind } from "./gist/index.js";
import { gitlabVariableKind } from "./gitlab-variable/index.js";
import { gitlabLabelKind } from "./gitlab-label/index.js";
import { gitlabHookKind } from "./gitlab-hook/index.js";
import { invitation } from "./invitation/index.js";
import type {
  KindModule,
  LifecyclePart,
  OrganizationPart,
  OwnerPart,
  RepositoryPart,
  SectionPart,
} from "./kind.js";
import { label } from "./label/index.js";
import { membersKind } from "./members/index.js";
import { migrationKind } from "./migration/index.js";
import { organizationSettingsKind } from "./organization-settings/index.js";
import { pagesKind } from "./pages/index.js";
import { projectSettingsKind } from "./project-settings/index.js";
import { protectedBranches } from "./protected-branches/index.js";
import { protectedTags } from "./protected-tags/index.js";
import { pushRulesKind } from "./push-rules/index.js";
import { mergeRequestApprovalsKind } from "./merge-request-approvals/index.js";
import { gitlabDeployKeyKind } from "./gitlab-deploy-key/index.js";
import { protectedEnvironmentKind } from "./protected-environment/index.js";
import { GROUPS, INSTANCE, ORGANIZATIONS, ownersSection } from "./owners-section.js";

export { INSTANCE_SCOPE } from "./owners-section.js";
import { ruleset } from "./ruleset/index.js";
import { secretKind } from "./secret/index.js";
import { settingsKind } from "./settings/index.js";
import { sharedWithGroupsKind } from "./shared-with-groups/index.js";
import { team } from "./team/index.js";
import { variableKind } from "./variable/index.js";
import { webhook } from "./webhook/index.js";

export type {
  ArchivedPolicy,
  GroupPart,
  Hold,
  InstancePart,
  KindModule,
  LifecyclePart,
  Location,
  OrganizationPart,
  PlanOptions,
  ProjectPart,
  RepositoryPart,
  SectionPart,
} from "./kind.js";

/**
 * The kinds of resource, in the order plans list them and apply applies them: a repository's own
 * settings first (the engine still moves its unarchive, rename and archive to their places,
 * src/engine/repository-order.ts), an organization's settings, teams before the access granted to
 * them, labels, environments and autolinks, Actions permissions, then variables and secrets (after
 * the environments they may live in), rulesets (which may name teams), then classic protections (a
 * ruleset is in place before a classic protection it makes redundant goes), hooks, custom
 * properties (an organization's definitions, then its repositories' values), deploy keys, Pages, a
 * GitLab project's settings, its protected branches and tags, push rules, merge-request approvals,
 * its CI/CD variables, labels, webhooks, deploy keys and protected environments, clean-ups, audits.
 * The one place a kind is registered (docs/adding-a-kind.md).
 */
export const KINDS: readonly KindModule[] = [
  settingsKind,
  organizationSettingsKind,
  team,
  access,
  label,
  environment,
  autolink,
  actionsKind,
  variableKind,
  secretKind,
  ruleset,
  branchProtection,
  webhook,
  customPropertyKind,
  deployKeyKind,
  pagesKind,
  projectSettingsKind,
  groupSettingsKind,
  badgeKind,
  membersKind,
  sharedWithGroupsKind,
  protectedBranches,
  protectedTags,
  pushRulesKind,
  mergeRequestApprovalsKind,
  gitlabVariableKind,
  gitlabLabelKind,
  gitlabHookKind,
  gitlabDeployKeyKind,
  protectedEnvironmentKind,
  boardKind,
  epicLinkKind,
  invitation,
  gistKind,
  migrationKind,
];

export const KIND_NAMES: readonly string[] = KINDS.map((kind) => kind.name);

/** A kind's part in a selecting scope (a repository's or a project's key), with the kind's name. */
export interface ScopedKind {
  name: string;
  part: RepositoryPart;
}

/** The kind of a scope that manages the places themselves, which the engine asks where each is. */
export type LifecycleKind = ScopedKind & { part: { lifecycle: LifecyclePart } };

/** The kinds configured per repository and per project, with their part, in the registry's order. */
export const SCOPED_KINDS: Readonly<Record<SelectingScope, readonly ScopedKind[]>> = {
  repository: KINDS.flatMap((kind) =>
    kind.repository ? [{ name: kind.name, part: kind.repository }] : [],
  ),
  project: KINDS.flatMap((kind) => (kind.project ? [{ name: kind.name, part: kind.project }] : [])),
};

/** The lifecycle kind of each selecting scope, if one is registered. */
export const LIFECYCLE_KINDS: Readonly<Record<SelectingScope, LifecycleKind | undefined>> = {
  repository: SCOPED_KINDS.repository.find((kind): kind is LifecycleKind => !!kind.part.lifecycle),
  project: SCOPED_KINDS.project.find((kind): kind is LifecycleKind => !!kind.part.lifecycle),
};

/** The kinds configured per repository, with their part. */
export const REPOSITORY_KINDS: ReadonlyArray<KindModule & { repository: RepositoryPart }> =
  KINDS.filter((kind): kind is KindModule & { repository: RepositoryPart } => !!kind.repository);

/** The kind that manages repositories themselves, which the engine asks where each one is. */
export const LIFECYCLE_KIND = LIFECYCLE_KINDS.repository;

/** The kinds configured per organization, with their part. */
export const ORGANIZATION_KINDS: ReadonlyArray<KindModule & { organization: OrganizationPart }> =
  KINDS.filter(
    (kind): kind is KindModule & { organization: OrganizationPart } => !!kind.organization,
  );

/** A kind's part in an owner scope (an organization's or a group's key), with the kind's name. */
export interface OwnerKind {
  name: string;
  part: OwnerPart<ZodType, string>;
}

/** The scopes composed from the kinds' parts into an owner section of their own. */
export type OwnerScope = "organization" | "group" | "instance";

/**
 * The kinds configured per organization, per group and per GitLab instance, with their part, in
 * the registry's order.
 */
export const OWNER_KINDS: Readonly<Record<OwnerScope, readonly OwnerKind[]>> = {
  organization: ORGANIZATION_KINDS.map((kind) => ({ name: kind.name, part: kind.organization })),
  group: KINDS.flatMap((kind) => (kind.group ? [{ name: kind.name, part: kind.group }] : [])),
  instance: KINDS.flatMap((kind) =>
    kind.instance ? [{ name: kind.name, part: kind.instance }] : [],
  ),
};

/**
 * A section of the file and the kinds whose changes it plans: a kind's own section (`audits.gists`),
 * or an owner section (`organizations`, `groups`, `instance`), composed from every kind's part of
 * that scope.
 */
export interface Section {
  /** Its path joined with dots, as entries name it: "groups", "audits.gists". */
  name: string;
  kinds: readonly string[];
  part: SectionPart;
}

const FRAMES = { organization: ORGANIZATIONS, group: GROUPS, instance: INSTANCE } as const;

const owners = (scope: OwnerScope): Section[] => {
  const kinds = OWNER_KINDS[scope];
  const frame = FRAMES[scope];
  if (kinds.length === 0) return [];
  return [
    {
      name: frame.at,
      kinds: kinds.map((kind) => kind.name),
      part: ownersSection(frame, kinds),
    },
  ];
};

export const SECTIONS: readonly Section[] = [
  ...owners("organization"),
  ...owners("group"),
  ...owners("instance"),
  ...KINDS.flatMap((kind) =>
    kind.section
      ? [{ name: kind.section.spec.at.join("."), kinds: [kind.name], part: kind.section }]
      : [],
  ),
];

/** What the kinds add to the configuration file: the loader's and the JSON Schema's input. */
export const configSpec: ConfigSpec = {
  settings: {
    repository: SCOPED_KINDS.repository.map((kind) => kind.part.setting),
    project: SCOPED_KINDS.project.map((kind) => kind.part.setting),
  },
  sections: SECTIONS.map((section) => section.part.spec),
};

export function kindNamed(name: string): KindModule | undefined {
  return KINDS.find((kind) => kind.name === name);
}

/** The section of a section entry ("projects", "organizations", "audits.gists" …). */
export function sectionNamed(name: string): Section | undefined {
  return SECTIONS.find((section) => section.name === name);
}

/**
 * After a write, what the service answered is compared with what was sent: the service may silently
 * drop or change values (GitHub drops principals without write access), and that must fail loudly.
 * A GET among a change's requests is checked against what it expects before the change goes on.
 */
export function verifyResponse(
  kind: string,
  request: PlannedRequest,
  response: unknown,
): string | undefined {
  if (request.method === "DELETE") return undefined;
  const diff = kindNamed(kind)?.verify?.(request, response) ?? [];
  if (diff.length === 0) return undefined;
  // A GET in a change checks the answer against what the change needs before it goes on.
  const read = request.method === "GET";
  const parts = diff.map(
    (entry) =>
      `${entry.path}: ${read ? "needs" : "sent"} ${JSON.stringify(entry.before ?? null)}, service has ${JSON.stringify(entry.after ?? null)}`,
  );
  return read
    ? `the answer does not show what the change needs before it goes on (${parts.join("; ")})`
    : `the service did not keep what was written (${parts.join("; ")})`;
}
