import { ForgeError } from "./errors.js";
import type { ForgeResponse } from "./types.js";
import { displayPath, lastLink, nextLink, pageNumber } from "./urls.js";

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

type Read = (url: URL) => Promise<ForgeResponse<unknown>>;

/** One page read: its items, and where its links lead. */
interface Page {
  url: URL;
  items: unknown[];
  next: URL | undefined;
  /** The `rel="last"` target, where the page names one. */
  last: URL | undefined;
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
 *
 * Where the first page names its last page and its next link is that same listing's page 2 (GitHub
 * and GitLab's offset-paged lists: `page=2` … `page=N` of one URL), the pages between are read at
 * once rather than one after another, as far as the client's concurrency lets them: a listing of
 * 1,000 repositories then takes two round trips instead of ten. Their items keep the pages' order,
 * and the last page's next link (items added meanwhile) is followed as before. A first page that
 * names a last page past `maxPages` fails the listing there, without reading the pages it names.
 */
export async function readListing<T>(
  first: URL,
  read: Read,
  options: ListingOptions,
): Promise<T[]> {
  const { base } = options;
  let url: URL | undefined = first;
  const seen = new Set<string>();
  const items: T[] = [];
  let bound: { pages: number; why: string } = {
    pages: options.maxPages,
    why: "the most forgeplan reads of one listing (--max-pages raises it)",
  };
  const admit = (target: URL) => {
    const refuse = (detail: string) =>
      new ForgeError({ method: "GET", path: displayPath(target, base), status: 0, detail });
    if (seen.has(target.href)) {
      throw refuse("the next-page link leads back to a page already read");
    }
    if (seen.size >= bound.pages) {
      throw refuse(`the listing goes on past ${bound.pages} pages, ${bound.why}`);
    }
    seen.add(target.href);
  };
  const keep = (page: Page) => {
    // One at a time: spreading a page into push() puts every item on the stack.
    for (const item of page.items as T[]) items.push(item);
  };
  while (url !== undefined) {
    admit(url);
    const page = await readPage(url, read, options, seen.size);
    keep(page);
    url = page.next;
    const last = page.last === undefined ? undefined : pageNumber(page.last);
    if (seen.size === 1 && last !== undefined && last + 1 < bound.pages) {
      // Items added while the list is read may push the last of them onto one more page.
      bound = { pages: last + 1, why: `though its first page named page ${last} as the last` };
    }
    const between = seen.size === 1 ? numberedPages(page, last) : undefined;
    if (between !== undefined) {
      for (const target of between) admit(target);
      const pages = await Promise.all(
        between.map((target, index) => readPage(target, read, options, index + 2)),
      );
      for (const one of pages) keep(one);
      url = pages.at(-1)?.next;
    }
  }
  return items;
}

/**
 * Pages 2 … last of a page-numbered listing, where the first page's next link is its page 2 and
 * its last link the same URL with another page; undefined for any other listing.
 */
function numberedPages(page: Page, last: number | undefined): URL[] | undefined {
  const { next, last: lastUrl } = page;
  if (next === undefined || lastUrl === undefined || last === undefined || last < 2) {
    return undefined;
  }
  const numbered = (n: number) => {
    const target = new URL(lastUrl.href);
    target.searchParams.set("page", String(n));
    return target;
  };
  if (numbered(2).href !== next.href) return undefined;
  return Array.from({ length: last - 1 }, (_, index) => numbered(index + 2));
}

/** Reads the `ordinal`-th page of a listing at `url`, and checks its shape and its links. */
async function readPage(
  url: URL,
  read: Read,
  options: ListingOptions,
  ordinal: number,
): Promise<Page> {
  const { base, perPage, itemsUnder } = options;
  const refuse = (detail: string) =>
    new ForgeError({ method: "GET", path: displayPath(url, base), status: 0, detail });
  const answer = await read(url);
  const items = pageItems(answer.data, itemsUnder);
  if (items === undefined) {
    throw new ForgeError({
      method: "GET",
      path: displayPath(url, base),
      status: answer.status,
      detail:
        itemsUnder === undefined
          ? "expected a list in the response"
          : `expected an object with a list under "${itemsUnder}" in the response`,
    });
  }
  let next: URL | undefined;
  let last: URL | undefined;
  try {
    next =
      nextLink(answer.headers.link, url) ??
      (options.pageNumbers ? nextPageNumber(answer.headers, url) : undefined);
    last = lastLink(answer.headers.link, url);
  } catch {
    throw refuse("the Link header holds a link that is not a URL");
  }
  if (next !== undefined && next.origin !== base.origin) {
    throw refuse(`refused to follow a next-page link to another origin (${next.origin})`);
  }
  if (next !== undefined && last === undefined && items.length < perPage) {
    const held = `${items.length} item${items.length === 1 ? "" : "s"}`;
    throw refuse(
      `page ${ordinal} of the listing holds ${held} of the ${perPage} asked for, yet links to a next page: a short page is the last, so the listing would not end`,
    );
  }
  return { url, items, next, last };
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
