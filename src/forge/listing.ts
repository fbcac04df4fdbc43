import { ForgeError } from "./errors.js";
import type { ForgeResponse } from "./types.js";
import { displayPath, lastPage, nextLink } from "./urls.js";

/** How one listing is read: where the service is, and how pages are shaped and bounded. */
export interface ListingOptions {
  /** The service's base URL: next-page links must stay on its origin; errors name paths under it. */
  base: URL;
  /** The page size asked for: a shorter page is the last. */
  perPage: number;
  /** The most pages one listing may take (--max-pages). */
  maxPages: number;
  /** Follow GitLab's `x-next-page` where no Link header names the next page. */
  pageNumbers: boolean;
  /** Each page is an object holding the list under this key, not the list itself. */
  itemsUnder?: string;
}

/**
 * Every item of a listing from `first`, following Link rel="next" on the same origin to the end,
 * each page read with `read` (the client's request, with its pacing, retries and cache).
 * A listing is bounded: at most `maxPages` pages, and no more than the last page its first page
 * names (rel="last"), plus one for items added while it is read; a link back to a page already
 * read, or past the bound, fails the request instead of reading on. Where a page names no last
 * page (cursor-paged lists, a broken proxy), one shorter than the page size asked for is the last:
 * if it still links onward, the listing would not end, and the request fails there. Each page is
 * the list itself, or with `itemsUnder` an object holding it under that key (`GET
 * /installation/repositories` answers `{total_count, repositories}`); a page of another shape
 * fails the request.
 */
export async function readListing<T>(
  first: URL,
  read: (url: URL) => Promise<ForgeResponse<unknown>>,
  options: ListingOptions,
): Promise<T[]> {
  const { base, perPage, itemsUnder } = options;
  let url: URL | undefined = first;
  const seen = new Set<string>();
  const items: T[] = [];
  let bound: { pages: number; why: string } = {
    pages: options.maxPages,
    why: "the most forgeplan reads of one listing (--max-pages raises it)",
  };
  while (url !== undefined) {
    const shown = displayPath(url, base);
    const refuse = (detail: string) =>
      new ForgeError({ method: "GET", path: shown, status: 0, detail });
    if (seen.has(url.href)) {
      throw refuse("the next-page link leads back to a page already read");
    }
    if (seen.size >= bound.pages) {
      throw refuse(`the listing goes on past ${bound.pages} pages, ${bound.why}`);
    }
    seen.add(url.href);
    const page = await read(url);
    const listed = pageItems(page.data, itemsUnder);
    if (listed === undefined) {
      throw new ForgeError({
        method: "GET",
        path: shown,
        status: page.status,
        detail:
          itemsUnder === undefined
            ? "expected a list in the response"
            : `expected an object with a list under "${itemsUnder}" in the response`,
      });
    }
    // One at a time: spreading a page into push() puts every item on the stack.
    for (const item of listed as T[]) items.push(item);
    let next: URL | undefined;
    let last: number | undefined;
    try {
      next =
        nextLink(page.headers.link, url) ??
        (options.pageNumbers ? nextPageNumber(page.headers, url) : undefined);
      last = lastPage(page.headers.link, url);
    } catch {
      throw refuse("the Link header holds a link that is not a URL");
    }
    if (next !== undefined && next.origin !== base.origin) {
      throw refuse(`refused to follow a next-page link to another origin (${next.origin})`);
    }
    if (next !== undefined && last === undefined && listed.length < perPage) {
      const held = `${listed.length} item${listed.length === 1 ? "" : "s"}`;
      throw refuse(
        `page ${seen.size} of the listing holds ${held} of the ${perPage} asked for, yet links to a next page: a short page is the last, so the listing would not end`,
      );
    }
    if (seen.size === 1 && last !== undefined && last + 1 < bound.pages) {
      // Items added while the list is read may push the last of them onto one more page.
      bound = { pages: last + 1, why: `though its first page named page ${last} as the last` };
    }
    url = next;
  }
  return items;
}

/**
 * GitLab's `x-next-page` where no Link header names the next page (a proxy that drops Link):
 * the same request with that page. GitLab sends it on every offset page, empty on the last, and
 * keeps it past 10,000 records where it leaves off `x-total` and rel="last" (REST API docs,
 * "Pagination response headers"), so a listing never needs the totals to end.
 */
function nextPageNumber(headers: Record<string, string>, url: URL): URL | undefined {
  const page = headers["x-next-page"]?.trim();
  if (page === undefined || !/^[1-9]\d*$/.test(page)) return undefined;
  const next = new URL(url.href);
  next.searchParams.set("page", page);
  return next;
}

/** The items of a page: the page itself, or the list under `itemsUnder`; undefined if not there. */
function pageItems(data: unknown, itemsUnder: string | undefined): unknown[] | undefined {
  const list =
    itemsUnder === undefined
      ? data
      : typeof data === "object" && data !== null && !Array.isArray(data)
        ? (data as Record<string, unknown>)[itemsUnder]
        : undefined;
  return Array.isArray(list) ? list : undefined;
}
