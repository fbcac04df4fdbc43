import {
  forbidden,
  HttpError,
  isoTime,
  noContent,
  notFound,
  ok,
  type Reply,
  type RequestContext,
  requireCaller,
} from "../http.js";
import { documentationUrl } from "../request-rules.js";
import type { Route } from "../http.js";
import type { Repository } from "../world/records.js";
import { adminRepository, assertUnlocked, branchOf } from "../world/access.js";
import { branchWithProtection } from "../branch-protection/shapes.js";
import { fullRepository } from "../world/shapes.js";
import { createRepository } from "./create.js";
import { editRepository } from "./edit.js";

/**
 * A repository's own settings (the `settings` kind): `PATCH /repos/{owner}/{repo}`, its topics, the
 * three security toggles with endpoints of their own, the rename of a branch, and the creation of
 * repositories under an organization or the caller. Writes to an archived repository are refused
 * once for every route (world/read-only.ts); docs/service-decisions.md has the rules.
 */

/** Writes that change the repository (not its hooks or protections) need admin rights. */
function writable(ctx: RequestContext): Repository {
  const { repo } = adminRepository(ctx);
  assertUnlocked(ctx, repo);
  return repo;
}

/**
 * GitHub's topics: "Topics must start with a lowercase letter or number, consist of 50 characters
 * or less, and can include hyphens", at most 20 of them (docs.github.com, "Classifying your
 * repository with topics").
 */
const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;
const MAX_TOPICS = 20;

function topicProblems(names: readonly string[]): string[] {
  const problems = names
    .filter((name) => !TOPIC.test(name))
    .map(
      (name) =>
        `${JSON.stringify(name)} is not a valid topic: topics must start with a lowercase letter or number, consist of 50 characters or less, and can include hyphens`,
    );
  if (new Set(names).size > MAX_TOPICS)
    problems.push(`a repository has at most ${MAX_TOPICS} topics`);
  return problems;
}

/**
 * "Vulnerability alerts must be enabled to configure automated security fixes." — GitHub's 422 to
 * either write of automated security fixes while alerts are off (microsoft/PowerShellForGitHub#269).
 */
function needsAlerts(ctx: RequestContext, repo: Repository): void {
  if (repo.vulnerability_alerts) return;
  throw new HttpError({
    status: 422,
    body: {
      message: "Vulnerability alerts must be enabled to configure automated security fixes.",
      documentation_url: documentationUrl(
        `${ctx.method} /repos/{owner}/{repo}/automated-security-fixes`,
      ),
    },
  });
}

/**
 * Private vulnerability reporting is for public repositories: GitHub's documentation offers it to
 * "owners and admins of public repositories", and its endpoints answer a private repository 404
 * (observed: veryfront/veryfront-code#2708).
 */
function reportingRepository(ctx: RequestContext, write: boolean): Repository {
  const repo = write ? writable(ctx) : adminRepository(ctx).repo;
  if (repo.private) throw notFound();
  return repo;
}

function touched(ctx: RequestContext, repo: Repository): void {
  repo.updated_at = isoTime(ctx.now());
}

/** A toggle's "not enabled": 404, which GitHub's description publishes without a body. */
const NOT_ENABLED: Reply = { status: 404 };

const toggleRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/vulnerability-alerts",
    // "204 Response if repository is enabled with vulnerability alerts", "404 Not Found if …not",
    // both published without a body.
    handler: (ctx) => (adminRepository(ctx).repo.vulnerability_alerts ? noContent : NOT_ENABLED),
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/vulnerability-alerts",
    operation: "PUT /repos/{owner}/{repo}/vulnerability-alerts",
    handler: (ctx) => {
      const repo = writable(ctx);
      repo.vulnerability_alerts = true;
      touched(ctx, repo);
      return noContent;
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/vulnerability-alerts",
    operation: "DELETE /repos/{owner}/{repo}/vulnerability-alerts",
    handler: (ctx) => {
      const repo = writable(ctx);
      // Dependabot security updates need Dependabot alerts: turning alerts off turns them off.
      repo.vulnerability_alerts = false;
      repo.automated_security_fixes = false;
      touched(ctx, repo);
      return noContent;
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/automated-security-fixes",
    // "404 Not Found if Dependabot is not enabled for the repository" (its alerts are off),
    // published without a body.
    handler: (ctx) => {
      const repo = adminRepository(ctx).repo;
      if (!repo.vulnerability_alerts) return NOT_ENABLED;
      return ok({ enabled: repo.automated_security_fixes, paused: false });
    },
  },
  ...(["PUT", "DELETE"] as const).map((method): Route => ({
    method,
    pattern: "/repos/:owner/:repo/automated-security-fixes",
    operation: `${method} /repos/{owner}/{repo}/automated-security-fixes`,
    handler: (ctx) => {
      const repo = writable(ctx);
      needsAlerts(ctx, repo);
      repo.automated_security_fixes = method === "PUT";
      touched(ctx, repo);
      return noContent;
    },
  })),
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/private-vulnerability-reporting",
    handler: (ctx) =>
      ok({ enabled: reportingRepository(ctx, false).private_vulnerability_reporting }),
  },
  ...(["PUT", "DELETE"] as const).map((method): Route => ({
    method,
    pattern: "/repos/:owner/:repo/private-vulnerability-reporting",
    operation: `${method} /repos/{owner}/{repo}/private-vulnerability-reporting`,
    handler: (ctx) => {
      const repo = reportingRepository(ctx, true);
      repo.private_vulnerability_reporting = method === "PUT";
      touched(ctx, repo);
      return noContent;
    },
  })),
];

/**
 * `POST …/branches/{branch}/rename`: the branch takes the new name with its protection, and stays
 * the default branch if it was one; a name another branch has is refused.
 */
function renameBranch(ctx: RequestContext) {
  const repo = writable(ctx);
  const branch = branchOf(ctx, repo);
  const body = ctx.json();
  const name = String(body.new_name);
  if (repo.branches.has(name)) throw ctx.invalid([`Branch ${name} already exists`], "Branch");
  const from = branch.name;
  repo.branches.delete(from);
  // The branch record itself takes the name, so what areas keep of it (its protection) stays.
  branch.name = name;
  repo.branches.set(name, branch);
  if (repo.default_branch === from) repo.default_branch = name;
  touched(ctx, repo);
  return ok(branchWithProtection(ctx.base, repo, name), 201);
}

export const settingsRoutes: Route[] = [
  {
    method: "PATCH",
    pattern: "/repos/:owner/:repo",
    operation: "PATCH /repos/{owner}/{repo}",
    handler: (ctx) => {
      const repo = writable(ctx);
      editRepository(ctx, repo, ctx.json());
      return ok(fullRepository(ctx.base, ctx.world, repo, ctx.caller));
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/topics",
    handler: (ctx) => ok({ names: adminRepository(ctx).repo.topics }),
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/topics",
    operation: "PUT /repos/{owner}/{repo}/topics",
    handler: (ctx) => {
      const repo = writable(ctx);
      const names = ctx.json().names as string[];
      const problems = topicProblems(names);
      if (problems.length > 0) throw ctx.invalid(problems, "Repository");
      repo.topics = [...new Set(names)];
      touched(ctx, repo);
      return ok({ names: repo.topics });
    },
  },
  ...toggleRoutes,
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/branches/*branch/rename",
    operation: "POST /repos/{owner}/{repo}/branches/{branch}/rename",
    handler: renameBranch,
  },
  {
    method: "POST",
    pattern: "/orgs/:org/repos",
    operation: "POST /orgs/{org}/repos",
    handler: (ctx) => {
      const org = ctx.world.organizations.get((ctx.params.org ?? "").toLowerCase());
      if (org === undefined) throw notFound();
      // A member without admin rights is refused "admin access" (mattdesl/ghrepo#2).
      if (!ctx.world.administers(org, requireCaller(ctx))) {
        throw forbidden(
          "You need admin access to the organization before adding a repository to it.",
        );
      }
      const repo = createRepository(
        ctx,
        org.account,
        org,
        ctx.json(),
        documentationUrl("POST /orgs/{org}/repos"),
      );
      return ok(fullRepository(ctx.base, ctx.world, repo, ctx.caller), 201);
    },
  },
  {
    method: "POST",
    pattern: "/user/repos",
    operation: "POST /user/repos",
    handler: (ctx) => {
      const caller = requireCaller(ctx);
      const repo = createRepository(
        ctx,
        caller,
        null,
        ctx.json(),
        documentationUrl("POST /user/repos"),
      );
      return ok(fullRepository(ctx.base, ctx.world, repo, ctx.caller), 201);
    },
  },
];
