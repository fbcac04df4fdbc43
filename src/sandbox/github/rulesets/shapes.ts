import { REPOSITORY_ROLES, sourceName } from "./model.js";
import { type Account, covers, type Repository, type GithubWorld } from "../world/records.js";
import type { BypassMode, Ruleset } from "./records.js";

/** The ruleset's read shapes: as lists show it, and the Repository ruleset. */

function nodeId(id: number): string {
  return Buffer.from(`RepositoryRuleset:${id}`).toString("base64url");
}

function links(base: string, ruleset: Ruleset) {
  const source = ruleset.source;
  if (source.type === "Repository") {
    const full = sourceName(source);
    return {
      self: { href: `${base}/repos/${full}/rulesets/${ruleset.id}` },
      html: { href: `${base}/${full}/rules/${ruleset.id}` },
    };
  }
  const org = source.org.account.login;
  return {
    self: { href: `${base}/orgs/${org}/rulesets/${ruleset.id}` },
    html: { href: `${base}/organizations/${org}/settings/rules/${ruleset.id}` },
  };
}

/**
 * Whether the caller may edit the ruleset: repository admins, organization owners, and an
 * installation whose App may write it (Administration of the repository, or of the organization).
 */
export function canEdit(world: GithubWorld, ruleset: Ruleset, caller: Account | null): boolean {
  if (caller === null) return false;
  const source = ruleset.source;
  const installation = caller.installation;
  if (installation !== undefined) {
    const [reaches, permission] =
      source.type === "Organization"
        ? [world.administers(source.org, caller), "organization_administration"]
        : [covers(installation, source.repo), "administration"];
    const held = installation.permissions[permission];
    return reaches && (held === "write" || held === "admin");
  }
  if (caller.site_admin) return true;
  if (source.type === "Organization") return source.org.owners.has(caller.id);
  return world.can(source.repo, caller, "admin");
}

const BYPASS_OF_MODE: Record<BypassMode, string> = {
  always: "always",
  pull_request: "pull_requests_only",
  exempt: "exempt",
};

/** How the caller may bypass the ruleset: by its repository role or as an organization owner. */
function callerBypass(
  world: GithubWorld,
  ruleset: Ruleset,
  repo: Repository,
  caller: Account | null,
) {
  if (caller === null) return "never";
  const permission = world.permission(repo, caller);
  const owner = repo.org?.owners.has(caller.id) ?? false;
  const actor = ruleset.bypass_actors.find(
    (candidate) =>
      (candidate.actor_type === "OrganizationAdmin" && owner) ||
      (candidate.actor_type === "User" && candidate.actor_id === caller.id) ||
      (candidate.actor_type === "RepositoryRole" &&
        REPOSITORY_ROLES.get(candidate.actor_id ?? 0) === permission),
  );
  return actor ? BYPASS_OF_MODE[actor.bypass_mode] : "never";
}

/** The ruleset as `GET …/rulesets` lists it: no rules, conditions or bypass actors. */
export function rulesetSummary(base: string, ruleset: Ruleset): Record<string, unknown> {
  return {
    id: ruleset.id,
    name: ruleset.name,
    target: ruleset.target,
    source_type: ruleset.source.type,
    source: sourceName(ruleset.source),
    enforcement: ruleset.enforcement,
    node_id: nodeId(ruleset.id),
    _links: links(base, ruleset),
    created_at: ruleset.created_at,
    updated_at: ruleset.updated_at,
  };
}

/**
 * The Repository ruleset. `bypass_actors` only for a caller who may edit the ruleset, and
 * `current_user_can_bypass` only on the repository-level endpoints (both per the spec's description).
 */
export function rulesetShape(
  base: string,
  world: GithubWorld,
  ruleset: Ruleset,
  caller: Account | null,
  repo: Repository | null,
): Record<string, unknown> {
  return {
    ...rulesetSummary(base, ruleset),
    ...(canEdit(world, ruleset, caller)
      ? { bypass_actors: ruleset.bypass_actors.map((actor) => ({ ...actor })) }
      : {}),
    ...(repo !== null
      ? { current_user_can_bypass: callerBypass(world, ruleset, repo, caller) }
      : {}),
    conditions: ruleset.conditions,
    rules: ruleset.rules,
  };
}
