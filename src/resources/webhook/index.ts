import * as z from "zod";
import {
  addressOf,
  type Change,
  type ChangeError,
  CREATED_ID,
  type DiffEntry,
  newChange,
  type PlannedRequest,
  type Removal,
  type Rotation,
  type SecretRef,
  unlistedChange,
} from "../../core/plan.js";
import type { Secret } from "../../core/secret.js";
import { changeError, mustFind, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import type { KindModule, PlanOptions } from "../kind.js";
import { rotates } from "../rotation.js";
import {
  hookListRules,
  organizationWebhooks,
  type WebhookSettings,
  type Webhooks,
  webhooks,
} from "./settings.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";

/**
 * Webhooks of repositories and of organizations, keyed by delivery URL (or a pinned id). Both follow
 * the same rules; an organization's hooks have no `branch_filter` or `authorization_header` (the
 * spec's fields of repository hooks), and GitHub's organization POST requires `name: "web"`.
 *
 * Which request carries which field follows GitHub's documented rules, because getting them wrong
 * silently removes a security setting:
 *
 * - `PATCH …/hooks/{id}` with a `config` that lacks `secret` REMOVES the secret ("If you previously
 *   had a `secret` set, you must provide the same `secret` or set a new `secret` or the secret will
 *   be removed", the operation's description in @octokit/openapi). So forgeplan never sends `config`
 *   there: config keys go to `PATCH …/hooks/{id}/config`, which changes only the keys it is sent, and
 *   `events`, `active` (and the spec's `branch_filter`, `authorization_header`) go to the hook PATCH
 *   without `config`, which keeps the secret (observed: PyGithub/PyGithub#2906).
 * - `POST …/hooks` is a closed schema (name, config, events, active): the spec's `branch_filter` and
 *   `authorization_header` are set by a PATCH of the hook just created.
 * - A hook's config keeps only url, content_type, secret and insecure_ssl (GitHub's webhook-config),
 *   so forgeplan stores nothing of its own there.
 *
 * Secrets (`config.secret`, `authorization_header`) are write-only: the service masks them when read,
 * so they are compared by presence only and a mask is never written back. Whether the value on the
 * service is the current one cannot be known, so it is sent again only when asked
 * (`--rotate-secrets`): an explicit, visible write.
 */

export interface CanonicalHook {
  url: string;
  content_type: string;
  events: string[];
  active: boolean;
  branch_filter: string;
  /** GitHub's "0" (verify TLS certificates) or "1". */
  insecure_ssl: string;
  secret: "set" | "unset";
  authorization_header: "set" | "unset";
}

/** The hook as listed (GitHub's webhook plus the spec's fields); every field the planner reads is checked. */
export const readHook = z.looseObject({
  id: z.number().int(),
  url: z.string().optional(),
  content_type: z.string().optional(),
  active: z.boolean().optional(),
  events: z.array(z.string()).optional(),
  branch_filter: z.string().nullish(),
  authorization_header: z.string().nullish(),
  config: z
    .looseObject({
      url: z.string().optional(),
      content_type: z.string().optional(),
      secret: z.string().nullish(),
      insecure_ssl: z.union([z.string(), z.number()]).optional(),
    })
    .nullish(),
});
type ReadHook = z.infer<typeof readHook>;

/**
 * Where hooks live: a repository (`/repos/{owner}/{repo}/hooks`) or an organization
 * (`/orgs/{org}/hooks`), and the scope their changes are addressed under.
 */
export interface HookSite {
  scope: string;
  /** The hooks' collection path. */
  path: string;
  owner: "repository" | "organization";
}

export function repositorySite(repo: RepoRef): HookSite {
  return {
    scope: `${repo.owner}/${repo.name}`,
    path: `${repoPath(repo)}/hooks`,
    owner: "repository",
  };
}

export function organizationSite(org: string): HookSite {
  return { scope: org, path: `/orgs/${encodeURIComponent(org)}/hooks`, owner: "organization" };
}

/** GitHub's webhook-config, the answer of `PATCH …/hooks/{id}/config`. */
const readConfig = z.looseObject({
  url: z.string().optional(),
  content_type: z.string().optional(),
  secret: z.string().nullish(),
  insecure_ssl: z.union([z.string(), z.number()]).optional(),
});

/** What a hook is created with when the desired state does not say (GitHub's defaults). */
const CREATE_DEFAULTS = {
  content_type: "json",
  events: ["push"],
  active: true,
  branch_filter: "*",
  insecure_ssl: "0",
};

function eventSet(events: readonly string[] | undefined): string[] {
  return [...new Set(events ?? [])].sort();
}

/**
 * The hook as forgeplan compares it. A repository hook's top-level `url` is its delivery URL (the
 * spec's Hook); an organization hook's is its own API URL (GitHub's org-hook), so there only
 * `config.url` is the delivery URL.
 */
export function fromRead(hook: ReadHook, owner: HookSite["owner"] = "repository"): CanonicalHook {
  const config = hook.config ?? {};
  const delivery = owner === "repository" ? hook.url : undefined;
  return {
    url: config.url ?? delivery ?? "",
    // A config without a content type is GitHub's default: "The default is `form`".
    content_type: config.content_type ?? hook.content_type ?? "form",
    events: eventSet(hook.events),
    active: hook.active !== false,
    // GitHub's hooks have no branch filter: every branch, as the spec's "*" says.
    branch_filter: hook.branch_filter || CREATE_DEFAULTS.branch_filter,
    insecure_ssl: String(config.insecure_ssl ?? CREATE_DEFAULTS.insecure_ssl),
    secret: config.secret ? "set" : "unset",
    authorization_header: hook.authorization_header ? "set" : "unset",
  };
}

const WRITE_ONLY = ["secret", "authorization_header"] as const;
type WriteOnly = (typeof WRITE_ONLY)[number];

function secretRef(secret: Secret): SecretRef {
  return { $secret: secret.source };
}

/** Which write-only values are sent, and what the reviewer is told about the ones that are not. */
interface WriteOnlyPlan {
  send: WriteOnly[];
  /** Sent although the service reports one set: an explicit rotation. */
  rotated: WriteOnly[];
  notes: string[];
}

/**
 * `configEdit`: the hook's config changes, and a config edit carries the managed secret (see
 * `requestsFor`), so a secret the service has is sent again then, without being asked.
 */
function writeOnlyPlan(
  desired: WebhookSettings,
  live: CanonicalHook | null,
  rotation: Rotation,
  configEdit: boolean,
): WriteOnlyPlan {
  const wanted = WRITE_ONLY.filter((key) => desired[key] !== undefined);
  if (live === null) return { send: wanted, rotated: [], notes: [] };
  const missing = wanted.filter((key) => live[key] === "unset");
  const present = wanted.filter((key) => live[key] === "set");
  const rotated = present.filter((key) => rotates(rotation, desired[key]?.source));
  const carried = present.filter((key) => key === "secret" && configEdit && !rotated.includes(key));
  const unverified = present.filter((key) => !rotated.includes(key) && !carried.includes(key));
  const notes = [
    ...(rotated.length > 0 ? [`${rotated.join(" and ")} sent again (rotation asked for)`] : []),
    ...(carried.length > 0
      ? ["secret sent again with the config edit, so the hook keeps the one configured"]
      : []),
    ...(unverified.length > 0
      ? [
          `${unverified.join(" and ")} ${unverified.length > 1 ? "are" : "is"} write-only and could not be verified; ` +
            "apply with --rotate-secrets to send the current value again",
        ]
      : []),
  ];
  return { send: [...missing, ...rotated, ...carried], rotated, notes };
}

/** The hook as it should be: live values with the desired fields laid over them. */
export function targetOf(
  desired: WebhookSettings,
  live: CanonicalHook | null,
  send: readonly WriteOnly[],
): CanonicalHook {
  const base: CanonicalHook = live ?? {
    url: desired.url,
    ...CREATE_DEFAULTS,
    events: [...CREATE_DEFAULTS.events],
    secret: "unset",
    authorization_header: "unset",
  };
  const target: CanonicalHook = {
    ...base,
    url: desired.url,
    content_type: desired.content_type ?? base.content_type,
    events: desired.events ? eventSet(desired.events) : base.events,
    active: desired.active ?? base.active,
    // An empty filter is the service's "every branch", which reads back as "*".
    branch_filter:
      desired.branch_filter === undefined
        ? base.branch_filter
        : desired.branch_filter || CREATE_DEFAULTS.branch_filter,
    insecure_ssl: desired.config?.insecure_ssl ?? base.insecure_ssl,
  };
  for (const key of send) target[key] = "set";
  return target;
}

function markSensitive(diff: DiffEntry[]): DiffEntry[] {
  return diff.map((entry) =>
    (WRITE_ONLY as readonly string[]).includes(entry.path) ? { ...entry, sensitive: true } : entry,
  );
}

/**
 * What differs, for the reviewer; a rotated value shows as changed although both sides read "set".
 * An organization's hook has no branch filter or authorization header (GitHub's org-hook), so
 * neither is shown of it.
 */
function diffOf(
  live: CanonicalHook | null,
  target: CanonicalHook,
  rotated: readonly WriteOnly[],
  owner: HookSite["owner"],
): DiffEntry[] {
  // A new hook without a secret has nothing secret to show: "+ secret: unset" would be noise.
  const before: Partial<CanonicalHook> = { ...live };
  const after: Partial<CanonicalHook> = { ...target };
  if (live === null) for (const key of WRITE_ONLY) if (after[key] === "unset") delete after[key];
  if (owner === "organization") {
    for (const side of [before, after]) {
      delete side.branch_filter;
      delete side.authorization_header;
    }
  }
  const diff = diffValues(before, after);
  for (const key of rotated) diff.push({ path: key, before: "set", after: "rotated" });
  return markSensitive(diff);
}

/**
 * The requests that take `live` to `target`; secrets travel as references resolved at apply. A
 * config edit carries the managed secret whenever there is one, so an edit never leaves the hook
 * without it or with another than the configuration names: GitHub documents that an update of the
 * hook "overwrites" the secret ("If you previously had a `secret` set, you must provide the same
 * `secret` or set a new `secret` or the secret will be removed", `PATCH …/hooks/{hook_id}` of
 * repositories and organizations in @octokit/openapi) and says nothing of the config endpoint.
 */
export function requestsFor(
  site: HookSite,
  id: number | null,
  live: CanonicalHook | null,
  target: CanonicalHook,
  desired: WebhookSettings,
  send: readonly WriteOnly[],
): PlannedRequest[] {
  const { path } = site;
  const changed = <K extends keyof CanonicalHook>(key: K) =>
    live === null || JSON.stringify(live[key]) !== JSON.stringify(target[key]);
  const config: Record<string, unknown> = {};
  if (live === null || changed("url")) config.url = target.url;
  if (live === null || changed("content_type")) config.content_type = target.content_type;
  if (changed("insecure_ssl") && (live !== null || desired.config?.insecure_ssl !== undefined)) {
    config.insecure_ssl = target.insecure_ssl;
  }
  if (send.includes("secret") && desired.secret) config.secret = secretRef(desired.secret);
  const fields: Record<string, unknown> = {};
  if (live !== null && changed("events")) fields.events = target.events;
  if (live !== null && changed("active")) fields.active = target.active;
  if (target.branch_filter !== (live?.branch_filter ?? CREATE_DEFAULTS.branch_filter)) {
    fields.branch_filter = target.branch_filter;
  }
  if (send.includes("authorization_header") && desired.authorization_header) {
    fields.authorization_header = secretRef(desired.authorization_header);
  }
  if (live === null || id === null) {
    // GitHub's organization POST requires `name`, which "Must be passed as "web"".
    const name = site.owner === "organization" ? { name: "web" } : {};
    const create: PlannedRequest = {
      method: "POST",
      path,
      body: { ...name, config, events: target.events, active: target.active },
    };
    if (Object.keys(fields).length === 0) return [create];
    return [create, { method: "PATCH", path: `${path}/${CREATED_ID}`, body: fields }];
  }
  const requests: PlannedRequest[] = [];
  if (Object.keys(config).length > 0) {
    requests.push({ method: "PATCH", path: `${path}/${id}/config`, body: config });
  }
  if (Object.keys(fields).length > 0) {
    requests.push({ method: "PATCH", path: `${path}/${id}`, body: fields });
  }
  return requests;
}

/**
 * Compares what a request sent with what the service answered: a hook (POST, hook PATCH) or its
 * config (config PATCH). A write-only value only has to read back as set.
 */
export function verifyWritten(request: PlannedRequest, response: unknown): DiffEntry[] {
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const isConfig = request.path.endsWith("/config");
  const parsed = isConfig ? readConfig.safeParse(response) : readHook.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "a webhook", after: "something else" }];
  }
  const actual = isConfig
    ? fromRead({ id: 0, config: parsed.data as z.infer<typeof readConfig> })
    : fromRead(parsed.data as ReadHook);
  const config = (isConfig ? sent : (sent.config ?? {})) as Record<string, unknown>;
  const expected: Record<string, unknown> = {};
  const got: Record<string, unknown> = {};
  const compare = (key: keyof CanonicalHook, value: unknown) => {
    expected[key] = value;
    got[key] = actual[key];
  };
  for (const key of ["url", "content_type", "insecure_ssl"] as const) {
    if (config[key] !== undefined) compare(key, String(config[key]));
  }
  if (config.secret !== undefined) compare("secret", "set");
  if (!isConfig) {
    if (sent.events !== undefined) compare("events", eventSet(sent.events as string[]));
    if (sent.active !== undefined) compare("active", sent.active);
    if (sent.branch_filter !== undefined) compare("branch_filter", sent.branch_filter);
    if (sent.authorization_header !== undefined) compare("authorization_header", "set");
  }
  return diffValues(expected, got);
}

/** What one desired hook needs, against the live hook it matched (or none): pure, for tests too. */
export function planHook(
  desired: WebhookSettings,
  found: ReadHook | undefined,
  site: HookSite,
  rotation: Rotation,
): Pick<Change, "action" | "diff" | "requests" | "notes" | "live_fingerprint"> {
  const live = found ? fromRead(found, site.owner) : null;
  const laid = targetOf(desired, live, []);
  const configEdit =
    live !== null &&
    (["url", "content_type", "insecure_ssl"] as const).some((key) => laid[key] !== live[key]);
  const { send, rotated, notes } = writeOnlyPlan(desired, live, rotation, configEdit);
  const target = targetOf(desired, live, send);
  const diff = diffOf(live, target, rotated, site.owner);
  const requests = requestsFor(site, found?.id ?? null, live, target, desired, send);
  const planned = {
    ...(notes.length > 0 ? { notes } : {}),
    live_fingerprint: fingerprint(live),
  };
  if (diff.length === 0 && live) return { action: "no-op", diff: [], requests: [], ...planned };
  return { action: live ? "update" : "create", diff, requests, ...planned };
}

export interface WebhookPlanInput {
  reader: ResourceReader;
  site: HookSite;
  mode: "additive" | "authoritative";
  hooks: WebhookSettings[];
  /** Which managed secrets and authorization headers to send again (they cannot be compared). */
  rotation: Rotation;
  /** When the plan verifies an apply: the hooks of this site it deleted. */
  deleted?: readonly Change[];
}

/** A hook change before it is named: the url it is at, the hook it is about (if known), its plan. */
interface HookPart {
  url: string;
  id: number | undefined;
  part: Partial<Change>;
  /** A live hook authoritative mode deletes. */
  deleted?: true;
}

/** The urls that more than one of `urls` has. */
function sharedUrls(urls: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const url of urls) (seen.has(url) ? shared : seen).add(url);
  return shared;
}

/**
 * The name of a hook change: its url, or `<url>#<id>` when another change of the repository is at
 * that url too, so that no address appears twice in a plan. A desired hook is suffixed only when
 * another desired hook shares its url (hooks pinned to different ids), never because of a hook
 * deleted beside it: its name must not change once that delete is applied, or the re-plan that
 * verifies an apply would not find it. A deleted hook is suffixed whenever its url is shared.
 */
function hookName(url: string, id: number | undefined, shared: ReadonlySet<string>): string {
  return id !== undefined && shared.has(url) ? `${url}#${id}` : url;
}

/** The live hook a desired hook is about (none: it is created), or why it cannot be told. */
type Match = { hook: ReadHook | undefined } | { error: ChangeError };

/**
 * A pinned hook is the hook of its id. An unpinned one is the hook at its url among those no desired
 * hook pins; several there is an error, never a pick, as GitHub lets hooks share a url.
 */
function matchOf(
  desired: WebhookSettings,
  live: readonly ReadHook[],
  unpinned: readonly ReadHook[],
  site: HookSite,
): Match {
  const { scope, path } = site;
  if (desired.id !== undefined) {
    const hook = live.find((candidate) => candidate.id === desired.id);
    if (hook) return { hook };
    return {
      error: changeError(`hook id ${desired.id} does not exist in ${scope}`, "GET", path, 404),
    };
  }
  const atUrl = unpinned.filter((hook) => fromRead(hook, site.owner).url === desired.url);
  if (atUrl.length < 2) return { hook: atUrl[0] };
  const ids = atUrl.map((hook) => hook.id).join(", ");
  return {
    error: changeError(
      `${atUrl.length} hooks of ${scope} have this url (ids ${ids}): pin the one to manage with id`,
      "GET",
      path,
      200,
    ),
  };
}

/**
 * Authoritative mode deletes the live hooks no desired hook is about: those no id pins and no
 * unpinned hook's url reaches (that hook matched the one there, or found several and is an error
 * that deletes none of them).
 */
function deletions(
  hooks: readonly WebhookSettings[],
  unpinned: readonly ReadHook[],
  site: HookSite,
  removal: Removal,
): HookPart[] {
  const urlsOfUnpinned = new Set(
    hooks.filter((hook) => hook.id === undefined).map((hook) => hook.url),
  );
  return unpinned.flatMap((hook) => {
    const canonical = fromRead(hook, site.owner);
    if (urlsOfUnpinned.has(canonical.url)) return [];
    const part: Partial<Change> = {
      action: "delete",
      diff: markSensitive(diffValues(canonical, {})),
      requests: [{ method: "DELETE", path: `${site.path}/${hook.id}` }],
      live_fingerprint: fingerprint(canonical),
      notes: [`hook id ${hook.id} is not in the desired state (webhooks mode: authoritative)`],
      removal,
    };
    return [{ url: canonical.url, id: hook.id, part, deleted: true as const }];
  });
}

/**
 * The hooks an apply deleted, as the plan that verifies it sees them. No configuration names them
 * (authoritative mode deletes what it does not list), so only this repository's listing can say
 * they are gone: one whose id the list does not hold is planned as already absent (a no-op); with
 * no list (its read failed) each carries the read's error, never a silent absence. A hook whose id
 * is still listed, or whose name a change of this plan has, is left to that change.
 */
function deletedHooks(
  deleted: readonly Change[],
  planned: readonly Change[],
  listed: { live: readonly ReadHook[] } | { error: ChangeError },
  path: string,
): Change[] {
  const names = new Set(planned.map((change) => change.name));
  return deleted.flatMap((change): Change[] => {
    if (names.has(change.name)) return [];
    const hook = newChange(change.target, change.scope, "webhook", change.name);
    if ("error" in listed) return [{ ...hook, error: listed.error }];
    const sentTo = (id: number) =>
      change.requests.some(
        (request) => request.method === "DELETE" && request.path === `${path}/${id}`,
      );
    if (listed.live.some((live) => sentTo(live.id))) return [];
    return [{ ...hook, live_fingerprint: fingerprint(null) }];
  });
}

/** Lists a repository's or organization's hooks once and plans every desired hook against them. */
export async function planWebhooks({
  reader,
  site,
  mode,
  hooks,
  rotation,
  deleted = [],
}: WebhookPlanInput): Promise<Change[]> {
  const { scope, path } = site;
  const named = (parts: readonly HookPart[]): Change[] => {
    const sharedByDesired = sharedUrls(parts.filter((entry) => !entry.deleted).map((e) => e.url));
    const shared = sharedUrls(parts.map((entry) => entry.url));
    return parts.map(({ url, id, part, deleted }) => ({
      ...newChange(
        reader.target,
        scope,
        "webhook",
        hookName(url, id, deleted ? shared : sharedByDesired),
      ),
      ...part,
    }));
  };
  const listed = await reader.list(path, undefined, { name: "webhooks", schema: readHook });
  if (listed.kind !== "found") {
    const error =
      listed.kind === "error"
        ? listed.error
        : changeError(
            `${site.owner} ${scope} was not found (or ${reader.credential} cannot see it)`,
            "GET",
            path,
            404,
          );
    const planned = named(hooks.map((hook) => ({ url: hook.url, id: hook.id, part: { error } })));
    // Authoritative mode would also delete what it does not list, and which hooks those are is
    // unknown: without this the plan of `hooks: []` would read as no change.
    const unlisted: Change[] =
      mode === "authoritative"
        ? [
            {
              ...unlistedChange(reader.target, scope, "webhook", error),
              notes: ["the hooks authoritative mode would delete could not be listed"],
            },
          ]
        : [];
    return [...unlisted, ...planned, ...deletedHooks(deleted, planned, { error }, path)];
  }
  const live = listed.data;
  const unpinned = live.filter((hook) => !hooks.some((desired) => desired.id === hook.id));
  const parts = hooks.map((desired): HookPart => {
    const match = matchOf(desired, live, unpinned, site);
    if ("error" in match) return { url: desired.url, id: desired.id, part: { error: match.error } };
    return {
      url: desired.url,
      id: desired.id ?? match.hook?.id,
      part: planHook(desired, match.hook, site, rotation),
    };
  });
  if (mode === "authoritative") {
    const collection = addressOf(reader.target, scope, "webhook", "").slice(0, -1);
    parts.push(...deletions(hooks, unpinned, site, { collection, live: live.length }));
  }
  const planned = named(parts);
  return [...planned, ...deletedHooks(deleted, planned, { live }, path)];
}

/**
 * The desired-state entry that reproduces a live hook (used by export), pinned by `id` when given.
 * Write-only values cannot be read, so they are left out: an exported hook leaves its secret unmanaged.
 */
export function toSettings(hook: CanonicalHook, id?: number): WebhookSettings {
  const settings: WebhookSettings = {
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

/**
 * What export writes for the hooks of a site; undefined when it has none. An organization hook's
 * secret is written as a `${…}` placeholder to fill (export --org writes what plans as no change
 * once its placeholders are set); a repository hook's is left out, unmanaged.
 */
async function exportHooks(reader: ResourceReader, site: HookSite): Promise<unknown> {
  const live = mustFind(
    await reader.list(site.path, undefined, { name: "webhooks", schema: readHook }),
    site.path,
  );
  if (live.length === 0) return undefined;
  // A hook whose url another hook shares can only be told from it by its id.
  const canonical = live.map((hook) => ({ id: hook.id, hook: fromRead(hook, site.owner) }));
  const shared = sharedUrls(canonical.map(({ hook }) => hook.url));
  return {
    mode: "additive",
    hooks: canonical.map(({ id, hook }) => {
      const settings = toSettings(hook, shared.has(hook.url) ? id : undefined);
      if (site.owner === "repository") return settings;
      const { branch_filter: _all, ...written } = settings;
      return hook.secret === "set"
        ? { ...written, secret: `\${${placeholderOf(site.scope, id)}}` }
        : written;
    }),
  };
}

/** The blocks of `validate --print`: named as the plan names them. */
function printHooks(value: unknown) {
  const { mode, hooks = [] } = value as Webhooks;
  const shared = sharedUrls(hooks.map((hook) => hook.url));
  return [
    { kind: "webhook", name: "*", path: [], fixed: [["mode", mode ?? "additive"]] as const },
    // Named as the plan names them: by the URL to set, also when pinned by id, with `#<id>`
    // where hooks of the list share it.
    ...hooks.map((hook, index) => ({
      kind: "webhook",
      name: hookName(hook.url, hook.id, shared),
      path: ["hooks", index],
    })),
  ];
}

/** Plans the value of a site's `webhooks` key. */
function planSite(reader: ResourceReader, site: HookSite, value: unknown, options: PlanOptions) {
  const { mode = "additive", hooks = [] } = value as Webhooks;
  return planWebhooks({
    reader,
    site,
    mode,
    hooks,
    rotation: options,
    deleted: options.deleted?.at(reader.target, site.scope, "webhook") ?? [],
  });
}

// The hook list is one setting: a list replaces the list before it, so two entries of one
// repository listing hooks would depend on their order.
const definesList = () => [{ id: "webhooks", path: [], what: "the webhook list" }];

export const webhook: KindModule = {
  name: "webhook",
  repository: {
    setting: {
      key: "webhooks",
      schema: webhooks.describe("The repository's webhooks."),
      rules: hookListRules,
      defines: definesList,
      print: printHooks,
    },
    plan: ({ reader, repo, value, options }) =>
      planSite(reader, repositorySite(repo), value, options),
    export: (reader, repo) => exportHooks(reader, repositorySite(repo)),
  },
  organization: {
    setting: {
      key: "webhooks",
      schema: organizationWebhooks.describe("The organization's webhooks."),
      rules: hookListRules,
      defines: definesList,
      print: printHooks,
    },
    plan: ({ reader, org, value, options }) =>
      planSite(reader, organizationSite(org), value, options),
    export: (reader, org) => exportHooks(reader, organizationSite(org)),
  },
  verify: verifyWritten,
};
