import { attached } from "../../core/attached.js";
import type { Organization } from "../world/records.js";

/** What `PATCH /orgs/{org}` sets besides the base permission (the world's `basePermission`). */
export interface OrganizationSettings {
  name: string | null;
  description: string | null;
  company: string | null;
  blog: string | null;
  email: string | null;
  location: string | null;
  twitter_username: string | null;
  has_organization_projects: boolean;
  has_repository_projects: boolean;
  members_can_create_repositories: boolean;
  members_can_create_public_repositories: boolean;
  members_can_create_private_repositories: boolean;
  members_can_create_internal_repositories: boolean;
  members_can_create_pages: boolean;
  members_can_create_public_pages: boolean;
  members_can_create_private_pages: boolean;
  members_can_fork_private_repositories: boolean;
  web_commit_signoff_required: boolean;
  deploy_keys_enabled_for_repositories: boolean;
  secret_scanning_push_protection_custom_link_enabled: boolean;
  secret_scanning_push_protection_custom_link: string | null;
  /** Billing, not managed by forgeplan; kept so the owner's answer is GitHub's. */
  billing_email: string | null;
  created_at: string;
  updated_at: string;
}

/** An organization's settings, made by its seed (organization-settings/index.ts). */
const settings = attached((_org: Organization) => ({
  value: undefined as OrganizationSettings | undefined,
}));

export function settingsOf(org: Organization): OrganizationSettings {
  const found = settings(org).value;
  if (found === undefined) throw new Error(`organization ${org.account.login} has no settings`);
  return found;
}

export function setSettings(org: Organization, value: OrganizationSettings): void {
  settings(org).value = value;
}
