import { randomUUID } from "node:crypto";
import type { Hook } from "./records.js";

/**
 * The delivery of a test event (`POST …/hooks/:hook_id/test/:trigger`), with the headers GitLab
 * sends (doc/user/project/integrations/webhooks.md, "Delivery headers"; the hook events' example
 * in doc/api/project_webhooks.md): `X-Gitlab-Event`, `X-Gitlab-Token` (the hook's secret token,
 * when it has one), `X-Gitlab-Instance`, the UUIDs and `Idempotency-Key`, then the hook's custom
 * headers. The sandbox has no network: it delivers only to a loopback url (a test's receiver) and
 * drops the others; a delivery that fails is not retried. GitLab delivers test events at once and
 * answers with the receiver's status; the sandbox answers before the delivery ends, which the
 * receiver awaits.
 */

const EVENT_HEADERS: Readonly<Record<string, string>> = {
  push_events: "Push Hook",
  tag_push_events: "Tag Push Hook",
  issues_events: "Issue Hook",
  confidential_issues_events: "Confidential Issue Hook",
  note_events: "Note Hook",
  merge_requests_events: "Merge Request Hook",
  job_events: "Job Hook",
  pipeline_events: "Pipeline Hook",
  wiki_page_events: "Wiki Page Hook",
  releases_events: "Release Hook",
  emoji_events: "Emoji Hook",
  resource_access_token_events: "Resource Access Token Hook",
};

export const TEST_TRIGGERS = Object.keys(EVENT_HEADERS);

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function deliverTest(hook: Hook, trigger: string, instance: string): void {
  let url: URL;
  try {
    url = new URL(hook.url);
  } catch {
    return;
  }
  if (!LOOPBACK.has(url.hostname)) return;
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": "GitLab/sandbox",
    "X-Gitlab-Event": EVENT_HEADERS[trigger] ?? "Push Hook",
    "X-Gitlab-Instance": instance,
    "X-Gitlab-Webhook-UUID": randomUUID(),
    "X-Gitlab-Event-UUID": randomUUID(),
    "Idempotency-Key": randomUUID(),
    ...(hook.token ? { "X-Gitlab-Token": hook.token } : {}),
    ...Object.fromEntries(hook.custom_headers),
  };
  const kind = trigger.replace(/_events$/, "");
  fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ object_kind: kind, event_name: kind }),
  }).then(
    (response) => response.body?.cancel(),
    () => undefined,
  );
}
