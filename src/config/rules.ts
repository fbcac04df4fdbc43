import type { Path } from "./errors.js";
import type { BranchProtectionSettings } from "./schema.js";

/** A rule broken at `path`, relative to the object the rule was checked on. */
export interface RuleProblem {
  path: Path;
  message: string;
}

/** The spec's limit on users + teams + apps across a branch protection's lists. */
export const MAX_PROTECTION_ACTORS = 100;

/** A branch name as the REST endpoint takes it: non-empty, without wildcard characters. */
export const WILDCARD_FREE_BRANCH = /^[^*?[]+$/;

export const WILDCARD_BRANCH_MESSAGE =
  "branch names cannot hold wildcards (*, ? or [): the service refuses them here; wildcard patterns need the GraphQL API";

interface ActorLists {
  users?: readonly string[];
  teams?: readonly string[];
  apps?: readonly string[];
}

function actors(lists: ActorLists | null | undefined): number {
  if (lists === null || lists === undefined) return 0;
  return (lists.users?.length ?? 0) + (lists.teams?.length ?? 0) + (lists.apps?.length ?? 0);
}

/** Rules of one branch's settings that hold whoever owns the repository. */
export function branchProtectionProblems(settings: BranchProtectionSettings): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const checks = settings.required_status_checks;
  if (checks?.contexts !== undefined && checks.checks !== undefined) {
    problems.push({
      path: ["required_status_checks", "contexts"],
      message:
        "contexts and checks are both set; contexts is closing down, so list every check under checks",
    });
  }
  // The service keeps one check per context, so a context listed twice could never read back as written.
  const seen = new Set<string>();
  (checks?.checks ?? []).forEach((check, index) => {
    if (seen.has(check.context)) {
      problems.push({
        path: ["required_status_checks", "checks", index, "context"],
        message: `context "${check.context}" is listed twice; the service keeps one check per context`,
      });
    }
    seen.add(check.context);
  });
  const reviews = settings.required_pull_request_reviews;
  const counts = {
    restrictions: actors(settings.restrictions),
    dismissal_restrictions: actors(reviews?.dismissal_restrictions),
    bypass_pull_request_allowances: actors(reviews?.bypass_pull_request_allowances),
  };
  const total =
    counts.restrictions + counts.dismissal_restrictions + counts.bypass_pull_request_allowances;
  if (total > MAX_PROTECTION_ACTORS) {
    const parts = Object.entries(counts)
      .map(([name, count]) => `${name} ${count}`)
      .join(", ");
    problems.push({
      path: [],
      message: `${total} users, teams and apps in total (${parts}); the service allows at most ${MAX_PROTECTION_ACTORS} across these lists`,
    });
  }
  return problems;
}

/** Rules that apply when the repository is known to be owned by a user rather than an organization. */
export function personalRepositoryProblems(settings: BranchProtectionSettings): RuleProblem[] {
  const problems: RuleProblem[] = [];
  if (settings.restrictions !== undefined && settings.restrictions !== null) {
    problems.push({
      path: ["restrictions"],
      message:
        "push restrictions are only for organization-owned repositories and owner_type is user; use null",
    });
  }
  const dismissal = settings.required_pull_request_reviews?.dismissal_restrictions;
  for (const list of ["users", "teams"] as const) {
    if (dismissal?.[list] !== undefined) {
      problems.push({
        path: ["required_pull_request_reviews", "dismissal_restrictions", list],
        message: `dismissal restrictions by ${list} are only for organization-owned repositories and owner_type is user`,
      });
    }
  }
  return problems;
}
