import type { ResourceReader } from "../context.js";
import { defineKind, type PlanOptions } from "../kind.js";
import { type HookSite, organizationSite, repositorySite, verifyWritten } from "./canonical.js";
import { planWebhooks } from "./plan.js";
import {
  type OrganizationWebhooks,
  organizationWebhooksSetting,
  type Webhooks,
  webhooksSetting,
} from "./settings.js";
import { exportOrganizationHooks, exportRepositoryHooks } from "./export.js";

/**
 * Webhooks of repositories and of organizations (`webhooks: {mode, hooks}`), keyed by delivery URL
 * or a pinned id; `authoritative` deletes the hooks not listed. docs/kinds.md, "Webhooks".
 */

/** Plans the value of a site's `webhooks` key. */
function planSite(
  reader: ResourceReader,
  site: HookSite,
  { mode = "additive", hooks = [] }: Webhooks | OrganizationWebhooks,
  options: PlanOptions,
) {
  return planWebhooks({
    reader,
    site,
    mode,
    hooks,
    rotation: options,
    deleted: options.deleted?.at(reader.target, site.scope, "webhook") ?? [],
  });
}

export const webhook = defineKind({
  name: "webhook",
  repository: {
    setting: webhooksSetting,
    plan: ({ reader, at, value, options }) => planSite(reader, repositorySite(at), value, options),
    export: exportRepositoryHooks,
  },
  organization: {
    setting: organizationWebhooksSetting,
    plan: ({ reader, at, value, options }) =>
      planSite(reader, organizationSite(at), value, options),
    export: exportOrganizationHooks,
  },
  verify: verifyWritten,
});
