import { createHash } from "node:crypto";
import type { Handler, Received, Reply } from "./fake-service.js";

/**
 * Answers GETs of a list the way GitHub does: `per_page` (default 30, at most 100) and `page`, an
 * absolute `Link` header, a strong ETag over the body, and 304 with no body (and no Link) when
 * If-None-Match matches.
 */
export function pagedList(items: unknown[], nextOrigin?: (request: Received) => string): Handler {
  return (request) => {
    const url = new URL(request.path, `http://${request.headers.host}`);
    const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? 30));
    const page = Number(url.searchParams.get("page") ?? 1);
    const body = items.slice((page - 1) * perPage, page * perPage);
    return conditional(
      request,
      body,
      nextLinkHeader(url, page, perPage, items.length, nextOrigin?.(request)),
    );
  };
}

function nextLinkHeader(
  url: URL,
  page: number,
  perPage: number,
  total: number,
  origin: string | undefined,
): Record<string, string> {
  const last = Math.max(1, Math.ceil(total / perPage));
  const link = (n: number, rel: string) => {
    const target = new URL(url.href.replace(url.origin, origin ?? url.origin));
    target.searchParams.set("page", String(n));
    return `<${target.href}>; rel="${rel}"`;
  };
  const parts = [];
  if (page < last) parts.push(link(page + 1, "next"), link(last, "last"));
  if (page > 1) parts.push(link(1, "first"), link(page - 1, "prev"));
  return parts.length > 0 ? { link: parts.join(", ") } : {};
}

export function etagOf(body: unknown): string {
  return `"${createHash("sha256").update(JSON.stringify(body)).digest("hex").slice(0, 32)}"`;
}

/** 200 with an ETag, or 304 when the request already holds it. */
export function conditional(
  request: Received,
  body: unknown,
  headers: Record<string, string> = {},
): Reply {
  const etag = etagOf(body);
  if (request.headers["if-none-match"] === etag) return { status: 304, headers: { etag } };
  return { status: 200, headers: { ...headers, etag }, body };
}
