import { request as octokitRequest } from "@octokit/request";
import type { Secret } from "../core/secret.js";
import { CLIENT_DEFAULTS } from "./defaults.js";
import { createHttpFetch } from "./http-fetch.js";
import { fromThrown } from "./outcome.js";

/** What an App request came back with; `status` 0 when no answer arrived. */
export type AppAnswer =
  { status: number; data: unknown } | { status: 0; failure: string; transient: boolean };

/** Sends one request of the App itself (signed with its JWT): token exchange and installation look-ups. */
export type AppRequest = (
  method: "GET" | "POST",
  path: string,
  authorization: Secret,
) => Promise<AppAnswer>;

const silentLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * The App's requests go to the same service as the target's, but outside its client: they are
 * authenticated as the App, so they count against the App's own budget, not the installation's
 * the client paces. Bodies come back parsed; nothing of the request is kept.
 */
export function createAppRequest(options: {
  baseUrl: string;
  userAgent: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}): AppRequest {
  const send = octokitRequest.defaults({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: {
      accept: "application/vnd.github+json",
      "user-agent": options.userAgent,
      "x-github-api-version": "2022-11-28",
    },
    request: { fetch: createHttpFetch(2), log: silentLog },
  });
  const timeoutMs = options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs;
  return async (method, path, authorization) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal =
      options.signal !== undefined ? AbortSignal.any([timeout, options.signal]) : timeout;
    try {
      const response = await send({
        method,
        url: path,
        headers: { authorization: authorization.reveal() },
        request: { signal },
      });
      return { status: response.status, data: response.data };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const outcome = fromThrown(error);
      if (outcome.kind === "response") return { status: outcome.status, data: outcome.data };
      if (outcome.kind === "refused") {
        return { status: 0, failure: outcome.detail, transient: false };
      }
      return {
        status: 0,
        failure: timeout.aborted ? `timed out after ${timeoutMs} ms` : outcome.failure.description,
        transient: outcome.failure.transient,
      };
    }
  };
}
