import { HttpError, type Reply, type RequestContext } from "../core/http-support.js";

/**
 * GitLab's two ways of paging a list (GitLab's REST docs, "Pagination", doc/api/rest/_index.md in
 * gitlab-org/gitlab).
 *
 * Offset pagination: `page` and `per_page` (default 20, at most 100), the headers `x-page`,
 * `x-per-page`, `x-next-page`, `x-prev-page`, `x-total`, `x-total-pages`, and a `Link` header with
 * rel="prev", "next", "first" and "last" (in that order, each URL keeping the request's other
 * parameters, as the docs' example shows). "For performance reasons, if a query returns more than
 * 10,000 records, GitLab doesn't return the following headers: x-total, x-total-pages, rel="last"
 * link" (same page, "Pagination response headers").
 *
 * Keyset pagination (`pagination=keyset`), where a listing offers it: `order_by` and `sort`,
 * records after the last one seen (`id_after`, or `id_before` descending), and a `Link` header
 * with rel="next" only; "when the end of the collection is reached and there are no additional
 * records to retrieve, the Link header is absent and the resulting array is empty", and "apart
 * from the headers shown, we don't expose additional pagination headers".
 */

type Context = RequestContext<{ world: unknown; caller: unknown; principal: unknown }>;

export const GITLAB_PER_PAGE = 20;
export const GITLAB_MAX_PER_PAGE = 100;
/** Past this many records a listing is not counted (no x-total, x-total-pages, rel="last"). */
export const COUNT_LIMIT = 10_000;
/**
 * GitLab's default `offset_pagination_limit` (docs, "Instance limits": "Max offset allowed by the
 * REST API for offset-based pagination … only applied to endpoints that also support keyset-based
 * pagination … Default offset pagination limit: 50000").
 */
export const OFFSET_LIMIT = 50_000;

function positive(value: string | null, fallback: number): number {
  if (value === null || !/^\d+$/.test(value.trim())) return fallback;
  const number = Number(value);
  return number >= 1 ? number : fallback;
}

export function perPageOf(ctx: Context): number {
  return Math.min(positive(ctx.query.get("per_page"), GITLAB_PER_PAGE), GITLAB_MAX_PER_PAGE);
}

function linkTo(ctx: Context, set: Record<string, string>): string {
  const url = new URL(ctx.url.href);
  url.pathname = ctx.linkPath(url.pathname);
  for (const [key, value] of Object.entries(set)) url.searchParams.set(key, value);
  return url.href;
}

/**
 * The 405 GitLab answers an offset past its limit on a listing that offers keyset pagination:
 * `offset_paginator` in lib/api/helpers/pagination_strategies.rb (gitlab-org/gitlab) checks
 * `page * per_page > offset_limit` and answers `error!("Offset pagination has a maximum allowed
 * offset of 50000 for requests that return objects of type Project. Remaining records can be
 * retrieved using keyset pagination.", 405)`, a body of `{"error": …}`.
 */
export function checkOffset(ctx: Context, type: string): void {
  const page = positive(ctx.query.get("page"), 1);
  if (page * perPageOf(ctx) > OFFSET_LIMIT) {
    throw new HttpError({
      status: 405,
      body: {
        error:
          `Offset pagination has a maximum allowed offset of ${OFFSET_LIMIT} for requests that ` +
          `return objects of type ${type}. Remaining records can be retrieved using keyset pagination.`,
      },
    });
  }
}

/** One page of a list by offset, with GitLab's headers. */
export function offsetPage<T>(ctx: Context, all: readonly T[]) {
  const perPage = perPageOf(ctx);
  const page = positive(ctx.query.get("page"), 1);
  const counted = all.length <= COUNT_LIMIT;
  const lastPage = Math.max(1, Math.ceil(all.length / perPage));
  const start = (page - 1) * perPage;
  const items = start < all.length ? all.slice(start, start + perPage) : [];
  const hasNext = start + perPage < all.length;
  // Kaminari answers no previous page for a page past the end.
  const prev = page > 1 && page <= lastPage ? page - 1 : undefined;
  const at = (target: number) => linkTo(ctx, { page: String(target), per_page: String(perPage) });
  const links: string[] = [];
  if (prev !== undefined) links.push(`<${at(prev)}>; rel="prev"`);
  if (hasNext) links.push(`<${at(page + 1)}>; rel="next"`);
  links.push(`<${at(1)}>; rel="first"`);
  if (counted) links.push(`<${at(lastPage)}>; rel="last"`);
  const headers: Record<string, string> = {
    Link: links.join(", "),
    "X-Page": String(page),
    "X-Per-Page": String(perPage),
    "X-Next-Page": hasNext ? String(page + 1) : "",
    "X-Prev-Page": prev !== undefined ? String(prev) : "",
  };
  if (counted) {
    headers["X-Total"] = String(all.length);
    headers["X-Total-Pages"] = String(lastPage);
  }
  return { items, headers };
}

/**
 * One page of a list of records with ids by keyset: `order_by=id` (the one order the listings the
 * sandbox serves offer it for), `sort` asc (default) or desc, after `id_after` / before
 * `id_before`. Another order is refused as GitLab refuses it: `Keyset pagination is not yet
 * available for this type of request`, 405 (pagination_strategies.rb, `keyset_paginator`).
 */
export function keysetPage<T extends { id: number }>(
  ctx: Context,
  all: readonly T[],
): Reply & {
  items: T[];
} {
  const orderBy = ctx.query.get("order_by") ?? "id";
  if (orderBy !== "id") {
    throw new HttpError({
      status: 405,
      body: { error: "Keyset pagination is not yet available for this type of request" },
    });
  }
  const descending = ctx.query.get("sort") === "desc";
  const perPage = perPageOf(ctx);
  const after = ctx.query.get("id_after");
  const before = ctx.query.get("id_before");
  const sorted = [...all].sort((a, b) => (descending ? b.id - a.id : a.id - b.id));
  const from = sorted.filter(
    (item) =>
      (after === null || item.id > Number(after)) && (before === null || item.id < Number(before)),
  );
  const items = from.slice(0, perPage);
  const headers: Record<string, string> = {};
  const last = items[items.length - 1];
  if (items.length === perPage && last !== undefined) {
    const bound: Record<string, string> = descending
      ? { id_before: String(last.id) }
      : { id_after: String(last.id) };
    headers.Link = `<${linkTo(ctx, { ...bound, per_page: String(perPage) })}>; rel="next"`;
  }
  return { status: 200, items, headers };
}
