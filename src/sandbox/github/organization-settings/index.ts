import * as z from "zod";
import { SEEDED_AT, timestamp } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { organizationSettingsPermissions } from "./app-permissions.js";
import { setSettings } from "./records.js";
import { organizationSettingsRoutes } from "./routes.js";

/** What `PATCH /orgs/{org}` sets, GitHub's defaults for a new organization where left out. */
const settingsFields = z.strictObject({
  description: z.string().nullable().default(null),
  company: z.string().nullable().default(null),
  blog: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  location: z.string().nullable().default(null),
  twitter_username: z.string().nullable().default(null),
  has_organization_projects: z.boolean().default(true),
  has_repository_projects: z.boolean().default(true),
  members_can_create_repositories: z.boolean().default(true),
  members_can_create_public_repositories: z.boolean().default(true),
  members_can_create_private_repositories: z.boolean().default(true),
  members_can_create_internal_repositories: z.boolean().default(false),
  members_can_create_pages: z.boolean().default(true),
  members_can_create_public_pages: z.boolean().default(true),
  members_can_create_private_pages: z.boolean().default(true),
  members_can_fork_private_repositories: z.boolean().default(false),
  web_commit_signoff_required: z.boolean().default(false),
  deploy_keys_enabled_for_repositories: z.boolean().default(true),
  secret_scanning_push_protection_custom_link_enabled: z.boolean().default(false),
  secret_scanning_push_protection_custom_link: z.string().nullable().default(null),
  billing_email: z.string().nullable().default(null),
  created_at: timestamp.default(SEEDED_AT),
});

/** An organization's own settings (the `organization_settings` kind): `GET`/`PATCH /orgs/{org}`. */
export const organizationSettings = githubArea({
  name: "organization-settings",
  seed: {
    organizations: { settings: settingsFields.default(settingsFields.parse({})) },
  },
  demo: {
    organizations: [
      {
        login: "acme",
        settings: {
          description: "Tools for builders",
          blog: "https://acme.example",
          location: "Remote",
          members_can_create_public_repositories: true,
          members_can_fork_private_repositories: false,
          web_commit_signoff_required: false,
        },
      },
    ],
  },
  build(world, seed) {
    seed.organizations.forEach((orgSeed, index) => {
      const org = world.seeded.organizations[index];
      if (org === undefined) return;
      setSettings(org, {
        ...orgSeed.settings,
        name: org.account.name,
        updated_at: orgSeed.settings.created_at,
      });
    });
  },
  routes: organizationSettingsRoutes,
  permissions: organizationSettingsPermissions,
});
