import type { RequestContext } from "../core/http-support.js";

/** GitLab takes parameters from the query string or the body; the body wins. */
export function parameters(ctx: RequestContext): Record<string, unknown> {
  return { ...Object.fromEntries(ctx.query), ...ctx.json() };
}
