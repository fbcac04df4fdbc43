/** Query parameters that may carry a credential; their values never appear in paths we print. */
const SENSITIVE_QUERY = /token|secret|password|passwd|key|sig|signature|code|auth/i;

/** Joins a base URL (which may carry a path prefix such as /api/v3) with a request path and query. */
export function buildUrl(
  baseUrl: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
): URL {
  if (!path.startsWith("/")) throw new Error(`request path must start with "/": ${path}`);
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}

/**
 * A URL as the user should see it: path and query relative to the base URL, with credential-like
 * query values redacted (Link headers and error messages must never echo a token).
 */
export function displayPath(url: URL, base: URL): string {
  const prefix = base.pathname.replace(/\/+$/, "");
  const path =
    prefix !== "" && url.pathname.startsWith(`${prefix}/`)
      ? url.pathname.slice(prefix.length)
      : url.pathname;
  const params = new URLSearchParams(url.search);
  for (const name of new Set(params.keys())) {
    if (SENSITIVE_QUERY.test(name)) params.set(name, "REDACTED");
  }
  const search = params.toString();
  return search === "" ? path : `${path}?${search}`;
}

/** The `rel="next"` target of a Link header, resolved against the URL of the page that carried it. */
export function nextLink(header: string | undefined, current: URL): URL | undefined {
  return linkTarget(header, "next", current);
}

/** The `rel="last"` target of a Link header, resolved against the URL of the page that carried it. */
export function lastLink(header: string | undefined, current: URL): URL | undefined {
  return linkTarget(header, "last", current);
}

/**
 * The page number a page-numbered list's link names (its `page` parameter), as GitHub and GitLab
 * send with rel="last"; undefined for cursor-paged lists, whose links carry no page number.
 */
export function pageNumber(url: URL): number | undefined {
  const page = url.searchParams.get("page");
  return page !== null && /^\d+$/.test(page) ? Number(page) : undefined;
}

function linkTarget(header: string | undefined, relation: string, current: URL): URL | undefined {
  if (header === undefined) return undefined;
  for (const match of header.matchAll(/<([^>]*)>([^,<]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2] ?? "");
    if (rel?.[1]?.split(/\s+/).includes(relation)) return new URL(match[1] ?? "", current);
  }
  return undefined;
}

/**
 * octokit expands `{name}` as a URI template even in a full URL; braces that survive URL
 * serialization (they are legal in a query) are escaped so they reach the service literally.
 */
export function literalUrl(url: URL): string {
  return url.href.replace(/\{/g, "%7B").replace(/\}/g, "%7D");
}
