import { githubError, noContent, notFound, ok } from "../http.js";
import type { RequestContext, Route } from "../http.js";
import { adminRepository, assertUnlocked, visibleRepository } from "../world/access.js";
import type { Repository } from "../world/records.js";
import { type PagesSite, pagesOf } from "./records.js";

/**
 * A repository's GitHub Pages site: read, create (`POST`, a source branch or a workflow build), update
 * (`PUT`: cname, https_enforced, build_type, source) and delete, in the spec's Page shape. Writes take
 * admin rights. A custom domain's certificate is issued at once here (GitHub's takes a while: the
 * sandbox keeps no clock for it), so HTTPS can be enforced on it straight away.
 */

function siteOf(repo: Repository): PagesSite {
  const site = pagesOf(repo).site;
  if (site === undefined) throw notFound();
  return site;
}

export function pagesShape(ctx: RequestContext, repo: Repository, site: PagesSite) {
  const host = site.cname ?? `${repo.owner.login.toLowerCase()}.github.io`;
  const path = site.cname === null ? `/${repo.name}/` : "/";
  return {
    url: `${ctx.base}/repos/${repo.owner.login}/${repo.name}/pages`,
    status: "built",
    cname: site.cname,
    custom_404: false,
    html_url: `https://${host}${path}`,
    build_type: site.build_type,
    ...(site.source === null ? {} : { source: site.source }),
    public: !repo.private,
    https_enforced: site.https_enforced,
    ...(site.cname === null
      ? {}
      : {
          https_certificate: {
            state: "approved",
            description: "Certificate is approved",
            domains: [site.cname],
          },
        }),
  };
}

/** The source a body gives, checked: a branch of the repository and `/` or `/docs`. */
function sourceOf(ctx: RequestContext, repo: Repository, given: unknown): PagesSite["source"] {
  const source = given as { branch?: unknown; path?: unknown };
  const branch = typeof source.branch === "string" ? source.branch : "";
  if (!repo.branches.has(branch)) {
    throw ctx.invalid(
      [`The ${branch} branch must exist before it can be used as a Pages source.`],
      "Page",
    );
  }
  const path = source.path ?? "/";
  if (path !== "/" && path !== "/docs") throw ctx.invalid(["path must be / or /docs"], "Page");
  return { branch, path };
}

export const pagesRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/pages",
    handler: (ctx) => {
      const repo = visibleRepository(ctx);
      return ok(pagesShape(ctx, repo, siteOf(repo)));
    },
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/pages",
    operation: "POST /repos/{owner}/{repo}/pages",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      assertUnlocked(ctx, repo);
      // "409 Conflict" is among the operation's answers: a site that exists.
      if (pagesOf(repo).site !== undefined)
        throw githubError(409, "GitHub Pages is already enabled.");
      const body = ctx.json();
      const buildType = body.build_type ?? "legacy";
      if (buildType === "legacy" && body.source === undefined) {
        throw ctx.invalid(["source is required for a legacy build"], "Page");
      }
      const site: PagesSite = {
        build_type: buildType as PagesSite["build_type"],
        source: body.source === undefined ? null : sourceOf(ctx, repo, body.source),
        cname: null,
        https_enforced: true,
      };
      pagesOf(repo).site = site;
      return ok(pagesShape(ctx, repo, site), 201);
    },
  },
  {
    method: "PUT",
    pattern: "/repos/:owner/:repo/pages",
    operation: "PUT /repos/{owner}/{repo}/pages",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      assertUnlocked(ctx, repo);
      const site = siteOf(repo);
      const body = ctx.json();
      const next: PagesSite = { ...site };
      if (body.build_type !== undefined)
        next.build_type = body.build_type as PagesSite["build_type"];
      if (body.source !== undefined) {
        next.source =
          typeof body.source === "string"
            ? sourceOf(ctx, repo, {
                branch: body.source.split(" ")[0],
                path: body.source.endsWith(" /docs") ? "/docs" : "/",
              })
            : sourceOf(ctx, repo, body.source);
      }
      if (body.cname !== undefined) next.cname = (body.cname as string | null) || null;
      if (body.https_enforced !== undefined) next.https_enforced = body.https_enforced === true;
      if (next.build_type === "legacy" && next.source === null) {
        throw ctx.invalid(["source is required for a legacy build"], "Page");
      }
      pagesOf(repo).site = next;
      return noContent;
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/pages",
    operation: "DELETE /repos/{owner}/{repo}/pages",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      siteOf(repo);
      assertUnlocked(ctx, repo);
      pagesOf(repo).site = undefined;
      return noContent;
    },
  },
];
