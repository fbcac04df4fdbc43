import { nodeId, simpleUser } from "../world/shapes.js";
import type { App, Installation } from "../world/records.js";

/** The shapes of Apps and their installations. */

type Json = Record<string, unknown>;

export function app(base: string, value: App): Json {
  return {
    id: value.id,
    slug: value.slug,
    node_id: nodeId("Integration", value.id),
    owner: simpleUser(base, value.owner),
    name: value.name,
    description: value.description,
    external_url: `${base}/apps/${value.slug}/home`,
    html_url: `${base}/apps/${value.slug}`,
    created_at: value.created_at,
    updated_at: value.created_at,
    permissions: { checks: "write", contents: "read", metadata: "read" },
    events: value.events,
  };
}

/** An App installation (`GET /app/installations/{id}`, `GET /orgs/{org}/installations`). */
export function installation(base: string, value: Installation): Record<string, unknown> {
  return {
    id: value.id,
    account: simpleUser(base, value.account),
    repository_selection: value.repositorySelection,
    access_tokens_url: `${base}/app/installations/${value.id}/access_tokens`,
    repositories_url: `${base}/installation/repositories`,
    html_url: `${base}/settings/installations/${value.id}`,
    app_id: value.app.id,
    app_slug: value.app.slug,
    target_id: value.account.id,
    target_type: value.account.type,
    permissions: value.permissions,
    events: value.app.events,
    created_at: value.created_at,
    updated_at: value.created_at,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: null,
    suspended_at: null,
  };
}
