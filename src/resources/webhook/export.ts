import { mustFind, type RepoRef, type ResourceReader } from "../context.js";
import {
  type CanonicalHook,
  CREATE_DEFAULTS,
  fromRead,
  type HookSite,
  organizationSite,
  readHook,
  repositorySite,
  type WriteOnly,
} from "./canonical.js";
import {
  sharedUrls,
  type WrittenHook,
  type WrittenOrganizationWebhooks,
  type WrittenWebhooks,
} from "./settings.js";

/** A hook without its write-only values: as written and as desired alike. */
type Readable = Omit<WrittenHook, WriteOnly>;

/**
 * The desired-state entry that reproduces a live hook (used by export), pinned by `id` when given.
 * Write-only values cannot be read, so they are left out: an exported hook leaves its secret unmanaged.
 */
export function toSettings(hook: CanonicalHook, id?: number): Readable {
  const settings: Readable = {
    url: hook.url,
    ...(id === undefined ? {} : { id }),
    events: hook.events,
    active: hook.active,
    content_type: hook.content_type === "form" ? "form" : "json",
    branch_filter: hook.branch_filter,
  };
  if (hook.insecure_ssl !== CREATE_DEFAULTS.insecure_ssl) {
    settings.config = { insecure_ssl: hook.insecure_ssl === "1" ? "1" : "0" };
  }
  return settings;
}

/** The variable export names an organization hook's secret after: ACME_HOOK_7_SECRET. */
function placeholderOf(org: string, id: number): string {
  return `${org.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_HOOK_${id}_SECRET`;
}

/** The hooks of a site as export writes them, each pinned by id where another shares its url. */
async function liveHooks(
  reader: ResourceReader,
  site: HookSite,
): Promise<Array<{ id: number; hook: CanonicalHook; settings: Readable }>> {
  const live = mustFind(
    await reader.list(site.path, undefined, { name: "webhooks", schema: readHook }),
    site.path,
  );
  // A hook whose url another hook shares can only be told from it by its id.
  const canonical = live.map((hook) => ({ id: hook.id, hook: fromRead(hook, site.owner) }));
  const shared = sharedUrls(canonical.map(({ hook }) => hook.url));
  return canonical.map(({ id, hook }) => ({
    id,
    hook,
    settings: toSettings(hook, shared.has(hook.url) ? id : undefined),
  }));
}

/** A repository's hooks; undefined when it has none. A hook's secret is left out, unmanaged. */
export async function exportRepositoryHooks(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<WrittenWebhooks | undefined> {
  const live = await liveHooks(reader, repositorySite(repo));
  if (live.length === 0) return undefined;
  return { mode: "additive", hooks: live.map(({ settings }) => settings) };
}

/**
 * An organization's hooks; undefined when it has none. A hook's secret is written as a `${…}`
 * placeholder to fill (export --org writes what plans as no change once its placeholders are set).
 */
export async function exportOrganizationHooks(
  reader: ResourceReader,
  org: string,
): Promise<WrittenOrganizationWebhooks | undefined> {
  const site = organizationSite(org);
  const live = await liveHooks(reader, site);
  if (live.length === 0) return undefined;
  return {
    mode: "additive",
    hooks: live.map(({ id, hook, settings }) => {
      const { branch_filter: _all, ...written } = settings;
      return hook.secret === "set"
        ? { ...written, secret: `\${${placeholderOf(site.scope, id)}}` }
        : written;
    }),
  };
}
