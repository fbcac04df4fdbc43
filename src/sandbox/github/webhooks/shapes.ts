import type { Organization } from "../world/records.js";
import { configShape, DEFAULT_CONTENT_TYPE, SECRET_MASK } from "./config.js";
import type { Hook } from "./records.js";

type Json = Record<string, unknown>;

/** The Hook read shape of docs/service-decisions.md; write-only values come back masked. */
export function hook(value: Hook): Json {
  return {
    id: value.id,
    type: "Repository",
    url: value.config.url,
    content_type: value.config.content_type ?? DEFAULT_CONTENT_TYPE,
    active: value.active,
    events: value.events,
    branch_filter: value.branch_filter,
    config: configShape(value.config),
    ...(value.authorization_header !== undefined ? { authorization_header: SECRET_MASK } : {}),
    metadata: null,
    created_at: value.created_at,
    updated_at: value.updated_at,
  };
}

/** GitHub's org-hook: its `url` is the hook's own API URL; the delivery URL is `config.url`. */
export function organizationHook(base: string, org: Organization, value: Hook): Json {
  const url = `${base}/orgs/${org.account.login}/hooks/${value.id}`;
  return {
    id: value.id,
    url,
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
    name: "web",
    events: value.events,
    active: value.active,
    config: configShape(value.config),
    updated_at: value.updated_at,
    created_at: value.created_at,
    type: "Organization",
  };
}
