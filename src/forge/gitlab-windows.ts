import {
  endpointLimitOf,
  GITLAB_COM_API_LIMIT,
  GITLAB_COM_ENDPOINT_LIMITS,
} from "./gitlab-limits.js";
import { PointWindow } from "./points.js";

/** A GitLab.com limit that holds a request: which group, and for how long. */
export interface GitlabHold {
  group: string;
  limit: number;
  windowMs: number;
  waitMs: number;
}

/**
 * GitLab.com's limits, each counted in its own sliding window: the per-endpoint limits (per user,
 * and per project or group where GitLab counts so) and the 2,000 requests a minute of every
 * authenticated request. The client spends here before it sends, so it stays under each limit
 * rather than waiting out a 429 that carries no rate-limit headers. A sliding window is never
 * looser than the fixed windows GitLab counts in (Rack::Attack's), since any fixed window lies
 * inside some sliding one; each is widened by the clock skew, as GitHub's points are.
 *
 * `share` is this client's fraction of each limit when shards of one run spend the same user's
 * (GitLab counts per user, not per token): shares adding up to 1 never exceed a limit together.
 */
export class GitlabWindows {
  readonly #endpoints = new Map<string, PointWindow>();
  readonly #api: PointWindow;

  constructor(share: number, skewMs: number) {
    for (const rule of GITLAB_COM_ENDPOINT_LIMITS) {
      this.#endpoints.set(rule.group, new PointWindow(rule.limit * share, rule.windowMs + skewMs));
    }
    this.#api = new PointWindow(
      GITLAB_COM_API_LIMIT.limit * share,
      GITLAB_COM_API_LIMIT.windowMs + skewMs,
    );
  }

  /** The longest wait GitLab.com's limits ask of this request; undefined when none holds it. */
  wait(method: string, path: string, now: number): GitlabHold | undefined {
    const holds: GitlabHold[] = [];
    const api = this.#api.wait(GITLAB_COM_API_LIMIT.group, 1, now);
    if (api > 0) holds.push({ ...GITLAB_COM_API_LIMIT, waitMs: api });
    const endpoint = endpointLimitOf(method, path);
    if (endpoint !== undefined) {
      const { rule, key } = endpoint;
      const waitMs = this.#endpoints.get(rule.group)!.wait(key, 1, now);
      if (waitMs > 0) holds.push({ ...rule, waitMs });
    }
    return holds.sort((a, b) => b.waitMs - a.waitMs)[0];
  }

  /** Counts a request that is admitted. */
  spend(method: string, path: string, now: number): void {
    this.#api.spend(GITLAB_COM_API_LIMIT.group, 1, now);
    const endpoint = endpointLimitOf(method, path);
    if (endpoint !== undefined)
      this.#endpoints.get(endpoint.rule.group)!.spend(endpoint.key, 1, now);
  }
}
