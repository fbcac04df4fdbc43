import { mustFind, type ResourceReader } from "../context.js";
import { fromRead, HOOK_SHAPE, headerKeys, type ReadHook } from "./canonical.js";
import type { HookSite } from "./plan.js";
import { sharedUrls, type WrittenGitlabHook, type WrittenGitlabHooks } from "./settings.js";

/** A name for an environment variable: letters and digits upper-cased, the rest `_`. */
function variableName(...parts: string[]): string {
  return parts.map((part) => part.toUpperCase().replace(/[^A-Z0-9]/g, "_")).join("_");
}

/**
 * A project's or a group's hooks as they are live, additive; undefined when it has none. Write-only
 * values are `${…}` placeholders to fill (`ACME_API_HOOK_7_TOKEN`, `ACME_HOOK_3_HEADER_X_AUTH`):
 * every hook's token, as GitLab never says whether a hook has one, and each custom header GitLab
 * lists by key. A placeholder is sent only when rotated, so the export plans as no change once its
 * variables are set. A project's listing hides custom headers: each hook is read for them.
 */
export async function exportGitlabHooks(
  reader: ResourceReader,
  site: HookSite,
): Promise<WrittenGitlabHooks | undefined> {
  const live = mustFind(await reader.list(site.path, undefined, HOOK_SHAPE), site.path);
  if (live.length === 0) return undefined;
  const shared = sharedUrls(live.map((hook) => hook.url));
  const hooks: WrittenGitlabHook[] = [];
  for (const hook of live) {
    const keys = headerKeys(hook) ?? headerKeys(await readOne(reader, site, hook)) ?? [];
    hooks.push(written(site, hook, keys, shared.has(hook.url)));
  }
  return { mode: "additive", hooks };
}

async function readOne(reader: ResourceReader, site: HookSite, hook: ReadHook): Promise<ReadHook> {
  const path = `${site.path}/${hook.id}`;
  return mustFind(await reader.getOrAbsent(path, HOOK_SHAPE), path);
}

function written(
  site: HookSite,
  hook: ReadHook,
  headers: readonly string[],
  pin: boolean,
): WrittenGitlabHook {
  const canonical = fromRead(hook, site.owner);
  const prefix = variableName(site.scope, "hook", String(hook.id));
  const entry: WrittenGitlabHook = {
    url: canonical.url,
    ...(pin ? { id: hook.id } : {}),
    ...(canonical.name ? { name: canonical.name } : {}),
    ...(canonical.description ? { description: canonical.description } : {}),
    events: canonical.events as WrittenGitlabHook["events"],
    enable_ssl_verification: canonical.enable_ssl_verification,
    branch_filter_strategy: canonical.branch_filter_strategy,
    ...(canonical.branch_filter ? { branch_filter: canonical.branch_filter } : {}),
    ...(canonical.custom_webhook_template
      ? { custom_webhook_template: canonical.custom_webhook_template }
      : {}),
    token: `\${${prefix}_TOKEN}`,
  };
  if (headers.length > 0) {
    entry.custom_headers = Object.fromEntries(
      headers.map((key) => [key, `\${${variableName(prefix, "header", key)}}`]),
    );
  }
  return entry;
}
