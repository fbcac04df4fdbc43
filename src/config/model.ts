/**
 * The resolved desired state: what the planner works from. Files are merged, defaults and profiles
 * applied, targets resolved, `${VAR}` expanded and secrets wrapped. Every entry keeps the place it was
 * written so plans and errors can point back to it.
 */
import type { Secret } from "../core/secret.js";
import type { Origin } from "./errors.js";
import type { BranchProtectionSettings } from "./schema.js";

export type { ConfigError, Origin } from "./errors.js";
export type { BranchProtectionSettings } from "./schema.js";

export interface TargetConfig {
  name: string;
  type: "repository" | "planning";
  /** Without a trailing slash. */
  baseUrl: string;
  tokenEnv: string;
  /** Read from `tokenEnv` at load time when set; absent is not a load error (validate needs no token). */
  token?: Secret;
}

export interface WebhookSettings {
  url: string;
  id?: number;
  events?: string[];
  active?: boolean;
  content_type?: "json" | "form";
  branch_filter?: string;
  config?: { insecure_ssl?: "0" | "1" };
  secret?: Secret;
  authorization_header?: Secret;
  origin: Origin;
}

export type RepositorySelector =
  | { kind: "name"; owner: string; repo: string }
  /** `pattern` and `exclude` are globs over the repository name (owner removed); case-insensitive. */
  | { kind: "glob"; owner: string; pattern: string; exclude: string[] };

export interface RepositoryEntry {
  target: string;
  origin: Origin;
  selector: RepositorySelector;
  ownerType?: "organization" | "user";
  /** Per branch, after defaults → profiles → entry; null means the branch must be unprotected. */
  branchProtection: Record<string, BranchProtectionSettings | null>;
  webhooks?: { mode: "additive" | "authoritative"; hooks: WebhookSettings[] };
  invitations?: { allowedInvitees?: string[]; maxAgeDays?: number; reportExpired: boolean };
}

export interface ProjectEntry {
  target: string;
  project: string | number;
  boardsAbsent: Array<{ name: string } | { id: number }>;
  origin: Origin;
}

export type EpicLinkSelector =
  | { epic: number; related: number; relatedGroup?: string | number }
  | { linkId: number; epic?: number };

export interface GroupEntry {
  target: string;
  group: string | number;
  epicLinksAbsent: EpicLinkSelector[];
  origin: Origin;
}

export interface GistAudit {
  target: string;
  allowPublic: boolean;
  /** YYYY-MM-DDTHH:MM:SSZ */
  since?: string;
  origin: Origin;
}

export type MigrationState = "pending" | "exporting" | "exported" | "failed";

export interface MigrationAudit {
  target: string;
  owner: { org: string } | { user: true };
  id: number;
  states?: MigrationState[];
  repositories?: string[];
  origin: Origin;
}

export interface DesiredState {
  targets: TargetConfig[];
  repositories: RepositoryEntry[];
  projects: ProjectEntry[];
  groups: GroupEntry[];
  gists: GistAudit[];
  migrations: MigrationAudit[];
  /** The files loaded, in merge order, as the errors name them. */
  files: string[];
}
