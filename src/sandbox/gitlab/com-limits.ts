import type { Reply } from "../core/http-support.js";

/**
 * GitLab.com's per-endpoint limits, enforced per user when the sandbox runs with them
 * (`--gitlab-com-limits`; off by default). Source: GitLab's docs, "GitLab.com rate limits"
 * (doc/user/gitlab_com/, "Current rate limits"): "Projects list requests (/api/v4/projects) 2,000
 * requests every 10 minutes", "Group projects requests (/api/v4/groups/:id/projects) 600 requests
 * each minute", "Single project requests (/api/v4/projects/:id) 400 requests each minute", "Groups
 * list requests (/api/v4/groups) 50 requests each minute", "Single group requests
 * (/api/v4/groups/:id) 400 requests each minute", "List all project members in a project 200
 * requests each minute". The members limit applies for each project (or group) and user, and the
 * group list of all members shares it ("Rate limits on Groups API", "Rate limit on listing group
 * members": "Both the GET /projects/:id/members/all and GET /groups/:id/members/all API endpoints
 * share the same rate limit configuration … Applies for each group and user").
 */
export const GITLAB_COM_LIMITS: Readonly<
  Record<string, { limit: number; windowSeconds: number; perRecord?: true }>
> = {
  "GET /api/v4/projects": { limit: 2000, windowSeconds: 600 },
  "GET /api/v4/groups/:id/projects": { limit: 600, windowSeconds: 60 },
  "GET /api/v4/projects/:id": { limit: 400, windowSeconds: 60 },
  "GET /api/v4/groups": { limit: 50, windowSeconds: 60 },
  "GET /api/v4/groups/:id": { limit: 400, windowSeconds: 60 },
  "GET /api/v4/projects/:id/members/all": { limit: 200, windowSeconds: 60, perRecord: true },
  "GET /api/v4/groups/:id/members/all": { limit: 200, windowSeconds: 60, perRecord: true },
};

/**
 * "Authenticated API traffic (for a given user): 2,000 requests each minute" (the same page):
 * Rack::Attack's `throttle_authenticated_api`, which counts every request under `/api`, GraphQL's
 * `POST /api/graphql` too.
 */
export const GITLAB_COM_API_LIMIT = { limit: 2000, windowSeconds: 60 };

/** The headers GitLab's throttled answers from these endpoints leave off. */
const RATE_HEADERS = [
  "RateLimit-Limit",
  "RateLimit-Observed",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-ResetTime",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-RateLimit-Used",
  "X-RateLimit-Resource",
];

/**
 * The answer of an endpoint over its limit: `check_rate_limit!` (lib/api/helpers/rate_limiter.rb,
 * gitlab-org/gitlab) answers `too_many_requests!({ error: "This endpoint has been requested too
 * many times. Try again later." }, retry_after: interval)`, a 429 whose body is `{"message":
 * {"error": …}}` with `Retry-After` the limit's interval; and "Rate limiting responses for the
 * Projects, Groups, and Users APIs do not include informational headers" ("GitLab.com rate
 * limits", "When you exceed a limit").
 */
function throttled(windowSeconds: number): Reply {
  return {
    status: 429,
    body: {
      message: { error: "This endpoint has been requested too many times. Try again later." },
    },
    headers: { "Retry-After": String(windowSeconds) },
    without: RATE_HEADERS,
  };
}

/** Counts each user's requests per endpoint in fixed windows from their first request. */
export class ComLimits {
  readonly #windows = new Map<string, { start: number; used: number }>();

  constructor(private readonly now: () => number) {}

  /** The refusal of a request over its endpoint's limit; undefined when within it (it counts). */
  check(
    operation: string,
    params: Record<string, string>,
    rateKey: string | undefined,
  ): Reply | undefined {
    if (rateKey === undefined) return undefined;
    const api = this.#apiTraffic(rateKey);
    if (api !== undefined) return api;
    const rule = GITLAB_COM_LIMITS[operation];
    if (rule === undefined) return undefined;
    const key = [rateKey, operation, rule.perRecord ? (params.id ?? "") : ""].join("\u0000");
    const now = this.now();
    let window = this.#windows.get(key);
    if (window === undefined || now - window.start >= rule.windowSeconds * 1000) {
      window = { start: now, used: 0 };
      this.#windows.set(key, window);
    }
    if (window.used >= rule.limit) return throttled(rule.windowSeconds);
    window.used++;
    return undefined;
  }

  /**
   * The `RateLimit-*` headers of the user's minute of API traffic, which GitLab.com reports on its
   * answers ("GitLab.com rate limits": "All responses, throttled or not, include RateLimit-Limit,
   * RateLimit-Remaining, and related headers"; their meaning: "User and IP rate limits",
   * "Response headers"), in place of the sandbox's own window; GitHub's names say the same.
   */
  rateHeaders(rateKey: string): Record<string, string> {
    const { limit } = GITLAB_COM_API_LIMIT;
    const window = this.#apiWindow(rateKey);
    const reset = this.#resetOf(window);
    const used = Math.min(window.used, limit);
    return {
      "RateLimit-Name": "throttle_authenticated_api",
      "RateLimit-Limit": String(limit),
      "RateLimit-Observed": String(window.used),
      "RateLimit-Remaining": String(limit - used),
      "RateLimit-Reset": String(reset),
      "RateLimit-ResetTime": new Date(reset * 1000).toUTCString(),
      "X-RateLimit-Limit": String(limit),
      "X-RateLimit-Remaining": String(limit - used),
      "X-RateLimit-Reset": String(reset),
      "X-RateLimit-Used": String(used),
    };
  }

  #apiWindow(rateKey: string): { start: number; used: number } {
    const key = `${rateKey}\u0000api`;
    const now = this.now();
    let window = this.#windows.get(key);
    if (window === undefined || now - window.start >= GITLAB_COM_API_LIMIT.windowSeconds * 1000) {
      window = { start: now, used: 0 };
      this.#windows.set(key, window);
    }
    return window;
  }

  #resetOf(window: { start: number }): number {
    return Math.ceil((window.start + GITLAB_COM_API_LIMIT.windowSeconds * 1000) / 1000);
  }

  /**
   * Counts the user's request in this minute; over 2,000, Rack::Attack's answer (GitLab's docs,
   * "Rate limiting responses"): 429 "Retry later", with `Retry-After` and the `RateLimit-*`
   * headers.
   */
  #apiTraffic(rateKey: string): Reply | undefined {
    const window = this.#apiWindow(rateKey);
    window.used++;
    if (window.used <= GITLAB_COM_API_LIMIT.limit) return undefined;
    const retryAfter = Math.max(1, this.#resetOf(window) - Math.floor(this.now() / 1000));
    return {
      status: 429,
      body: "Retry later\n",
      headers: { "Retry-After": String(retryAfter), ...this.rateHeaders(rateKey) },
    };
  }
}
