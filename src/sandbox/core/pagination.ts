import type { Reply, RequestContext } from "./http-support.js";

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;

function positive(value: string | null, fallback: number): number {
  if (value === null || !/^\d+$/.test(value.trim())) return fallback;
  const number = Number(value);
  return number >= 1 ? number : fallback;
}

export interface Page<T> {
  items: T[];
  headers: Record<string, string>;
  /** The page answered, its size, and the number of the last page (1 for an empty list). */
  page: number;
  perPage: number;
  lastPage: number;
}

/**
 * One page of a list, with the `Link` header (first/prev/next/last, absolute URLs that keep the other
 * query parameters, on the path the family names it by: `RequestContext.linkPath`). `per_page`
 * above the maximum is clamped; a missing or malformed `per_page` or `page` takes the default.
 */
export function paginate<T>(ctx: RequestContext, all: readonly T[]): Page<T> {
  const perPage = Math.min(positive(ctx.query.get("per_page"), DEFAULT_PER_PAGE), MAX_PER_PAGE);
  const page = positive(ctx.query.get("page"), 1);
  const lastPage = Math.max(1, Math.ceil(all.length / perPage));
  const start = (page - 1) * perPage;
  const items = start < all.length ? all.slice(start, start + perPage) : [];

  const link = (target: number, rel: string) => {
    const url = new URL(ctx.url.href);
    url.pathname = ctx.linkPath(url.pathname);
    url.searchParams.set("page", String(target));
    return `<${url.href}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(Math.min(page - 1, lastPage), "prev"));
  if (page < lastPage) links.push(link(page + 1, "next"));
  if (page !== lastPage) links.push(link(lastPage, "last"));
  if (page > 1) links.push(link(1, "first"));

  const headers: Record<string, string> = {};
  if (links.length > 0) headers.Link = links.join(", ");
  return { items, headers, page, perPage, lastPage };
}

/** A 200 answer of one page of a list, each item as `shape` renders it. */
export function pageReply<T>(
  ctx: RequestContext,
  all: readonly T[],
  shape: (item: T) => unknown,
): Reply {
  const page = paginate(ctx, all);
  return { status: 200, body: page.items.map(shape), headers: page.headers };
}
