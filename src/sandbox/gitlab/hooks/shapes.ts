import type { Hook } from "./records.js";

/**
 * The events each kind of hook has, as GitLab's entities show them (lib/api/entities/project_hook.rb
 * and ee's GroupHook; doc/api/project_webhooks.md, group_webhooks.md, "Get a … webhook").
 * `repository_update_events` is shown but not writable through these APIs: always false here.
 */
export const PROJECT_HOOK_EVENTS = [
  "push_events",
  "tag_push_events",
  "merge_requests_events",
  "issues_events",
  "confidential_issues_events",
  "note_events",
  "confidential_note_events",
  "job_events",
  "pipeline_events",
  "wiki_page_events",
  "deployment_events",
  "feature_flag_events",
  "releases_events",
  "milestone_events",
  "emoji_events",
  "resource_access_token_events",
] as const;

export const GROUP_HOOK_EVENTS = [
  "push_events",
  "tag_push_events",
  "merge_requests_events",
  "issues_events",
  "confidential_issues_events",
  "note_events",
  "confidential_note_events",
  "job_events",
  "pipeline_events",
  "wiki_page_events",
  "deployment_events",
  "feature_flag_events",
  "releases_events",
  "emoji_events",
  "resource_access_token_events",
  "project_events",
  "subgroup_events",
  "member_events",
] as const;

export type HookScope = "projects" | "groups";

export const eventsOf = (scope: HookScope): readonly string[] =>
  scope === "projects" ? PROJECT_HOOK_EVENTS : GROUP_HOOK_EVENTS;

/**
 * A hook as GitLab's Hook entity shows it (lib/api/entities/hook.rb): never its token; its custom
 * headers and url variables by key only (`masked_custom_headers`), and not at all where `listed`
 * says a project's listing hides them (lib/api/project_hooks.rb lists with
 * `with_url_variables: false, with_custom_headers: false`; a group's listing shows them).
 */
export function hookShape(
  hook: Hook,
  scope: HookScope,
  ownerId: number,
  hideMasked: boolean,
): Record<string, unknown> {
  const shown: Record<string, unknown> = {
    id: hook.id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: hook.created_at,
    ...(scope === "projects" ? { project_id: ownerId } : { group_id: ownerId }),
    ...Object.fromEntries(eventsOf(scope).map((field) => [field, hook.events[field] === true])),
    repository_update_events: false,
    enable_ssl_verification: hook.enable_ssl_verification,
    alert_status: "executable",
    disabled_until: null,
    push_events_branch_filter: hook.push_events_branch_filter,
    branch_filter_strategy: hook.branch_filter_strategy,
    custom_webhook_template: hook.custom_webhook_template,
  };
  if (!hideMasked) {
    shown.url_variables = [];
    shown.custom_headers = [...hook.custom_headers.keys()].map((key) => ({ key }));
  }
  return shown;
}
