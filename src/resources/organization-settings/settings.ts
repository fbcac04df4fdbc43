/**
 * How an organization's settings are written (`organizations: - settings: {…}`): the fields of
 * GitHub's `PATCH /orgs/{org}` that are settings of the organization, not billing. Fields GitHub has
 * retired are refused by name with GitHub's note.
 */
import * as z from "zod";
import { closed, httpUrl } from "../../config/fields.js";
import { defineSetting } from "../../config/spec.js";

const text = (what: string) => z.string().optional().describe(`${what}; "" clears it.`);
const flag = (what: string) => z.boolean().optional().describe(what);

/**
 * What GitHub's schema says of a field it has retired, quoted where a user who writes it will read
 * it: "**Endpoint closing down notice.** Please use code security configurations instead." for the
 * `*_enabled_for_new_repositories` fields, and the closing-down notice of
 * `members_allowed_repository_creation_type` (`PATCH /orgs/{org}` in @octokit/openapi).
 */
const CODE_SECURITY_NOTE =
  "GitHub's note: 'Endpoint closing down notice. Please use code security configurations instead' (https://docs.github.com/rest/code-security/configurations); forgeplan does not send it";

const retired = (field: string, note: string) =>
  z
    .never({ error: `${field} is retired: ${note}` })
    .optional()
    .describe(`Refused: ${note}.`);

const RETIRED_SECURITY = [
  "advanced_security_enabled_for_new_repositories",
  "dependabot_alerts_enabled_for_new_repositories",
  "dependabot_security_updates_enabled_for_new_repositories",
  "dependency_graph_enabled_for_new_repositories",
  "secret_scanning_enabled_for_new_repositories",
  "secret_scanning_push_protection_enabled_for_new_repositories",
] as const;

/** The settings forgeplan manages, in the order it shows them. */
export const MANAGED = {
  name: text("The organization's display name (GitHub: 'the shorthand name of the company')"),
  description: z
    .string()
    .max(160)
    .optional()
    .describe('The description of the organization, at most 160 characters; "" clears it.'),
  company: text("The company name"),
  blog: text("The organization's website"),
  email: text("The publicly visible email address"),
  location: text("The location"),
  twitter_username: text("The organization's Twitter username"),
  default_repository_permission: z
    .enum(["read", "write", "admin", "none"])
    .optional()
    .describe("The permission every member has on every repository of the organization."),
  members_can_create_repositories: flag(
    "Whether members can create repositories at all; false forbids every kind.",
  ),
  members_can_create_public_repositories: flag("Whether members can create public repositories."),
  members_can_create_private_repositories: flag("Whether members can create private repositories."),
  members_can_create_internal_repositories: flag(
    "Whether members can create internal repositories (organizations of an enterprise).",
  ),
  members_can_create_pages: flag("Whether members can publish GitHub Pages sites."),
  members_can_create_public_pages: flag("Whether members can publish public GitHub Pages sites."),
  members_can_create_private_pages: flag("Whether members can publish private GitHub Pages sites."),
  members_can_fork_private_repositories: flag(
    "Whether members can fork private repositories of the organization.",
  ),
  web_commit_signoff_required: flag(
    "Whether commits made in GitHub's web interface must be signed off.",
  ),
  has_organization_projects: flag("Whether the organization can use organization projects."),
  has_repository_projects: flag("Whether its repositories can use repository projects."),
  deploy_keys_enabled_for_repositories: flag(
    "Whether deploy keys may be added to and used in its repositories.",
  ),
  secret_scanning_push_protection_custom_link_enabled: flag(
    "Whether contributors blocked by push protection are shown a custom link.",
  ),
  secret_scanning_push_protection_custom_link: z
    .union([z.literal(""), httpUrl("https://wiki.acme.example/secrets")])
    .optional()
    .describe(
      'The link shown when secret_scanning_push_protection_custom_link_enabled is true; "" clears it.',
    ),
};

export type ManagedKey = keyof typeof MANAGED;
export const MANAGED_KEYS = Object.keys(MANAGED) as ManagedKey[];
export type OrganizationSettings = Partial<Record<ManagedKey, string | boolean>>;

const TYPES = ["public", "private", "internal"] as const;

const organizationSettings = closed({
  ...MANAGED,
  ...Object.fromEntries(
    RETIRED_SECURITY.map((field) => [field, retired(field, CODE_SECURITY_NOTE)]),
  ),
  members_allowed_repository_creation_type: retired(
    "members_allowed_repository_creation_type",
    "GitHub's note: 'This parameter is closing down and will be removed in the future'; write members_can_create_public_repositories, members_can_create_private_repositories and members_can_create_internal_repositories",
  ),
  billing_email: z
    .never({ error: "billing_email is billing, which forgeplan does not manage" })
    .optional()
    .describe("Refused: billing is not managed."),
})
  .superRefine((settings, ctx) => {
    // A custom link applies only when shown: "If secret_scanning_push_protection_custom_link_enabled
    // is true, the URL that will be displayed" (GitHub's schema).
    const link = settings.secret_scanning_push_protection_custom_link;
    if (link && settings.secret_scanning_push_protection_custom_link_enabled !== true) {
      ctx.addIssue({
        code: "custom",
        path: ["secret_scanning_push_protection_custom_link"],
        message:
          "a custom link applies only with secret_scanning_push_protection_custom_link_enabled: true",
      });
    }
    const kinds = TYPES.map((type) => settings[`members_can_create_${type}_repositories`]);
    if (
      settings.members_can_create_repositories === true &&
      kinds.every((kind) => kind === false)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["members_can_create_repositories"],
        message:
          "members can create repositories only of some kind: members_can_create_public_repositories, members_can_create_private_repositories and members_can_create_internal_repositories are all false",
      });
    }
    if (settings.members_can_create_repositories !== false) return;
    for (const type of TYPES) {
      const key = `members_can_create_${type}_repositories` as const;
      if (settings[key] === true) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `members_can_create_repositories: false forbids every kind of repository, so ${key} cannot be true`,
        });
      }
    }
  })
  .describe(
    "The organization's settings (GitHub's PATCH /orgs/{org}); a field not written is left as it is.",
  );

export const organizationSettingsSetting = defineSetting({
  key: "settings",
  schema: organizationSettings,
  defines: () => [{ id: "settings", path: [], what: "the organization settings" }],
  print: () => [{ kind: "organization_settings", name: "settings", path: [] }],
});
