import type { ConfigSpec } from "../config/spec.js";
import type { PlannedRequest } from "../core/plan.js";
import { access } from "./access/index.js";
import { actionsKind } from "./actions/index.js";
import { autolink } from "./autolink/index.js";
import { boardKind } from "./board/index.js";
import { branchProtection } from "./branch-protection/index.js";
import { environment } from "./environment/index.js";
import { epicLinkKind } from "./epic-link/index.js";
import { gistKind } from "./gist/index.js";
import { invitation } from "./invitation/index.js";
import type { KindModule, OrganizationPart, RepositoryPart, SectionPart } from "./kind.js";
import { label } from "./label/index.js";
import { migrationKind } from "./migration/index.js";
import { organizationSettingsKind } from "./organization-settings/index.js";
import { organizationsSection } from "./organizations.js";
import { ruleset } from "./ruleset/index.js";
import { secretKind } from "./secret/index.js";
import { team } from "./team/index.js";
import { variableKind } from "./variable/index.js";
import { webhook } from "./webhook/index.js";

export type {
  Hold,
  KindModule,
  OrganizationPart,
  PlanOptions,
  RepositoryPart,
  SectionPart,
} from "./kind.js";

/**
 * The kinds of resource, in the order plans list them and apply applies them: an organization's
 * settings, teams before the access granted to them, labels, environments and autolinks, Actions
 * permissions, then variables and secrets (after the environments they may live in), rulesets
 * (which may name teams), then classic protections (a ruleset is in place before a classic
 * protection it makes redundant goes), hooks, clean-ups, audits. The one place a kind is registered
 * (docs/adding-a-kind.md).
 */
export const KINDS: readonly KindModule[] = [
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
  boardKind,
  epicLinkKind,
  invitation,
  gistKind,
  migrationKind,
];

export const KIND_NAMES: readonly string[] = KINDS.map((kind) => kind.name);

/** The kinds configured per repository, with their part. */
export const REPOSITORY_KINDS: ReadonlyArray<KindModule & { repository: RepositoryPart }> =
  KINDS.filter((kind): kind is KindModule & { repository: RepositoryPart } => !!kind.repository);

/** The kinds configured per organization (keys of an `organizations` entry), with their part. */
export const ORGANIZATION_KINDS: ReadonlyArray<KindModule & { organization: OrganizationPart }> =
  KINDS.filter(
    (kind): kind is KindModule & { organization: OrganizationPart } => !!kind.organization,
  );

/**
 * A section of the file and the kinds whose changes it plans: a kind's own section (`projects`,
 * `audits.gists`), or `organizations`, composed from every kind's organization part.
 */
export interface Section {
  /** Its path joined with dots, as entries name it: "projects", "audits.gists". */
  name: string;
  kinds: readonly string[];
  part: SectionPart;
}

export const SECTIONS: readonly Section[] = [
  ...(ORGANIZATION_KINDS.length === 0
    ? []
    : [
        {
          name: "organizations",
          kinds: ORGANIZATION_KINDS.map((kind) => kind.name),
          part: organizationsSection(ORGANIZATION_KINDS),
        },
      ]),
  ...KINDS.flatMap((kind) =>
    kind.section
      ? [{ name: kind.section.spec.at.join("."), kinds: [kind.name], part: kind.section }]
      : [],
  ),
];

/** What the kinds add to the configuration file: the loader's and the JSON Schema's input. */
export const configSpec: ConfigSpec = {
  settings: REPOSITORY_KINDS.map((kind) => kind.repository.setting),
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
