import type { RequestContext } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { type Gist, gistsOf } from "./records.js";
import { gist } from "./shapes.js";

/** The caller's gists, or every public gist for an anonymous caller (spec endpoint 4). */

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function sinceFilter(ctx: RequestContext): number | undefined {
  const since = ctx.query.get("since");
  if (since === null) return undefined;
  const time = ISO_8601.test(since) ? Date.parse(since) : Number.NaN;
  if (Number.isNaN(time)) {
    throw ctx.invalid(
      [`since: '${since}' is not a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ`],
      "Gist",
    );
  }
  return time;
}

function newestFirst(a: Gist, b: Gist): number {
  if (a.updated_at !== b.updated_at) return a.updated_at < b.updated_at ? 1 : -1;
  return a.id < b.id ? -1 : 1;
}

export const gistRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/gists",
    handler: (ctx) => {
      const since = sinceFilter(ctx);
      const source = ctx.caller
        ? (gistsOf(ctx.world).byOwner.get(ctx.caller.id) ?? [])
        : gistsOf(ctx.world).all.filter((item) => item.public);
      const selected = source
        .filter((item) => since === undefined || Date.parse(item.updated_at) > since)
        .sort(newestFirst);
      const page = paginate(ctx, selected);
      return {
        status: 200,
        body: page.items.map((item) => gist(ctx.base, item)),
        headers: page.headers,
      };
    },
  },
];
