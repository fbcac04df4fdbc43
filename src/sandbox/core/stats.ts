/** What `GET /_sandbox/stats` reports; later checks reconcile apply reports against these counts. */
export interface SandboxStats {
  /** Every request to the API (not counting `/_sandbox/` requests). */
  requests_total: number;
  /**
   * Requests answered as over a limit: primary, secondary and injected secondary-limit answers,
   * and GitLab.com's per-endpoint limits (`gitlabComLimits`).
   */
  rate_limited_responses: number;
  /** The secondary-limit share of `rate_limited_responses`. */
  secondary_limited_responses: number;
  not_modified_responses: number;
  /** Injected 502/503 answers. */
  server_errors_injected: number;
  /** Successful state-changing requests (2xx answers to PUT, PATCH, POST and DELETE). */
  mutations_applied: number;
  /** Installation access tokens issued (`POST /app/installations/{id}/access_tokens`). */
  installation_tokens_issued: number;
  /**
   * Requests refused because the service's published description of the operation refuses them:
   * bodies GitHub's request schema refuses (422), parameters GitLab's refuses (400).
   */
  invalid_request_bodies: number;
  /** `POST /graphql` requests answered (each also counts in `requests_total`). */
  graphql_queries: number;
  requests_by_method: Record<string, number>;
  responses_by_status: Record<string, number>;
}

export function emptyStats(): SandboxStats {
  return {
    requests_total: 0,
    rate_limited_responses: 0,
    secondary_limited_responses: 0,
    not_modified_responses: 0,
    server_errors_injected: 0,
    mutations_applied: 0,
    installation_tokens_issued: 0,
    invalid_request_bodies: 0,
    graphql_queries: 0,
    requests_by_method: {},
    responses_by_status: {},
  };
}

export function countInto(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
