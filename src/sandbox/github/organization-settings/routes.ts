import { type OrganizationSettings, setSettings, settingsOf } from "./records.js";
import { isoTime, notFound, ok, type RequestContext } from "../http.js";
import type { Route } from "../http.js";
import type { RepoPermission } from "../world/records.js";
import { administeredOrganization } from "../world/access.js";
import { organizationFull } from "./shapes.js";

/**
 * An organization's profile and member privileges: `GET /orgs/{org}` (anyone; the settings only to
 * those who administer it) and `PATCH /orgs/{org}` (owners). docs/service-decisions.md has the rules.
 */

const TEXT = [
  "name",
  "description",
  "company",
  "blog",
  "email",
  "location",
  "twitter_username",
] as const;

const FLAGS = [
  "has_organization_projects",
  "has_repository_projects",
  "members_can_create_repositories",
  "members_can_create_public_repositories",
  "members_can_create_private_repositories",
  "members_can_create_internal_repositories",
  "members_can_create_pages",
  "members_can_create_public_pages",
  "members_can_create_private_pages",
  "members_can_fork_private_repositories",
  "web_commit_signoff_required",
  "deploy_keys_enabled_for_repositories",
  "secret_scanning_push_protection_custom_link_enabled",
] as const;

const BASE_PERMISSION: Record<string, RepoPermission> = {
  none: "none",
  read: "pull",
  write: "push",
  admin: "admin",
};

/** "The description of the company. The maximum size is 160 characters." (GitHub's schema) */
const MAX_DESCRIPTION = 160;

const TYPES = [
  "members_can_create_public_repositories",
  "members_can_create_private_repositories",
  "members_can_create_internal_repositories",
] as const;

/**
 * Whether members can create repositories is whether they can create some kind of them: `false`
 * turns every kind off, `true` turns on the kinds the request does not set when none is on, and the
 * kinds a request sets decide it (GitHub's descriptions: the finer settings "override" it). A request
 * that turns it on and every kind off contradicts itself: 422.
 */
function applyCreation(
  ctx: RequestContext,
  settings: OrganizationSettings,
  body: Record<string, unknown>,
): void {
  const sent = TYPES.filter((key) => typeof body[key] === "boolean");
  if (body.members_can_create_repositories === false) {
    for (const key of TYPES) settings[key] = false;
  } else if (body.members_can_create_repositories === true && !TYPES.some((key) => settings[key])) {
    const unsent = TYPES.filter((key) => !sent.includes(key));
    if (unsent.length === 0) {
      throw ctx.invalid(
        ["members_can_create_repositories cannot be true while every kind of repository is off"],
        "Organization",
      );
    }
    for (const key of unsent) settings[key] = true;
  }
  settings.members_can_create_repositories = TYPES.some((key) => settings[key]);
}

/**
 * The closing-down `members_allowed_repository_creation_type` sets the finer settings it stands
 * for ("Using this parameter overrides values set in `members_can_create_repositories`").
 */
function applyCreationType(settings: OrganizationSettings, type: unknown): void {
  if (type === undefined) return;
  settings.members_can_create_repositories = type !== "none";
  settings.members_can_create_public_repositories = type === "all";
  settings.members_can_create_private_repositories = type !== "none";
}

function patch(ctx: RequestContext) {
  const org = administeredOrganization(ctx);
  const body = ctx.json();
  const errors: string[] = [];
  const description = body.description;
  if (typeof description === "string" && description.length > MAX_DESCRIPTION) {
    errors.push(`description is too long (maximum is ${MAX_DESCRIPTION} characters)`);
  }
  const link = body.secret_scanning_push_protection_custom_link;
  if (typeof link === "string" && link !== "" && !/^https?:\/\/\S+$/.test(link)) {
    errors.push("secret_scanning_push_protection_custom_link must be an http(s) URL");
  }
  if (errors.length > 0) throw ctx.invalid(errors, "Organization");
  const settings: OrganizationSettings = { ...settingsOf(org) };
  // An empty string clears a text field, which reads back as absent (or null).
  for (const key of TEXT) {
    if (typeof body[key] === "string") settings[key] = (body[key] as string) || null;
  }
  for (const key of FLAGS) {
    if (typeof body[key] === "boolean") settings[key] = body[key] as boolean;
  }
  if (typeof link === "string") settings.secret_scanning_push_protection_custom_link = link || null;
  if (typeof body.billing_email === "string") settings.billing_email = body.billing_email || null;
  applyCreationType(settings, body.members_allowed_repository_creation_type);
  applyCreation(ctx, settings, body);
  const permission = body.default_repository_permission;
  if (typeof permission === "string") org.basePermission = BASE_PERMISSION[permission] ?? "pull";
  settings.updated_at = isoTime(ctx.now());
  setSettings(org, settings);
  org.account.name = settings.name;
  return ok(organizationFull(ctx.base, ctx.world, org, ctx.caller));
}

export const organizationSettingsRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/orgs/:org",
    handler: (ctx) => {
      const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
      if (org === undefined) throw notFound();
      return ok(organizationFull(ctx.base, ctx.world, org, ctx.caller));
    },
  },
  { method: "PATCH", pattern: "/orgs/:org", operation: "PATCH /orgs/{org}", handler: patch },
];
