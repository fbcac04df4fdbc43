import { gitlabForbidden, type RequestContext } from "./http.js";

/**
 * GitLab's subscription tiers. The sandbox runs as one instance of one tier (`--gitlab-tier`,
 * default ultimate): GitLab.com sets the tier per top-level group, self-managed GitLab per
 * instance licence, and the sandbox follows the latter for every group alike.
 */
export const GITLAB_TIERS = ["free", "premium", "ultimate"] as const;
export type GitlabTier = (typeof GITLAB_TIERS)[number];

export function isGitlabTier(value: string): value is GitlabTier {
  return (GITLAB_TIERS as readonly string[]).includes(value);
}

/**
 * Where the instance runs (`--gitlab-offering`, default self-managed): a few endpoints answer
 * only on one of them, such as custom roles, a top-level group's on GitLab.com and the instance's
 * on a self-managed instance (GitLab's lib/api/member_roles.rb:
 * `Gitlab::Saas.feature_available?(:gitlab_com_subscriptions)`).
 */
export const GITLAB_OFFERINGS = ["self-managed", "com"] as const;
export type GitlabOffering = (typeof GITLAB_OFFERINGS)[number];

export function isGitlabOffering(value: string): value is GitlabOffering {
  return (GITLAB_OFFERINGS as readonly string[]).includes(value);
}

/**
 * Refuses a request to an endpoint of a higher tier than the sandbox's, as GitLab refuses it once
 * the group is found: 403 (docs, "Epics API": "If the Epics feature is not available, a 403 status
 * code is returned"; "Linked epics API", Tier: Ultimate: "If the Related Epics feature is not
 * available in your GitLab plan, a 403 status code is returned"), `{"message":"403 Forbidden"}`.
 */
export function requireTier(ctx: RequestContext, minimum: GitlabTier): void {
  if (GITLAB_TIERS.indexOf(ctx.world.tier) < GITLAB_TIERS.indexOf(minimum)) {
    throw gitlabForbidden();
  }
}
