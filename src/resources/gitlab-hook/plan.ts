import {
  type Change,
  type ChangeError,
  type DiffEntry,
  type PlannedRequest,
  type Rotation,
  type SecretRef,
} from "../../core/plan.js";
import type { Secret } from "../../core/secret.js";
import { type Match, type MemberChange, planCollection } from "../collection.js";
import { changeError, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { rotates } from "../rotation.js";
import {
  type CanonicalHook,
  eventBooleans,
  fromRead,
  HOOK_SHAPE,
  headerKeys,
  type ReadHook,
} from "./canonical.js";
import { type GitlabHookSettings, type HookOwner, hookName, sharedUrls } from "./settings.js";

/**
 * Webhooks of a GitLab project or group (`/api/v4/projects/:id/hooks`, `/api/v4/groups/:id/hooks`),
 * keyed by delivery URL or a pinned id, edited in place with `PUT …/hooks/:hook_id`.
 *
 * The secret token is never lost, by GitLab's own rules (app/models/concerns/web_hooks/hook.rb,
 * `reset_token`: `self.token = nil if url_changed? && !encrypted_token_changed?`; the API docs: "When
 * you change the webhook URL, the secret token is reset and not retained"):
 * - a PUT that omits `token` keeps it, so an edit never sends it;
 * - it is sent on create, when rotation asks (`--rotate-secrets`, `--rotate-secret NAME`), and with
 *   the PUT that changes a pinned hook's URL, which would otherwise clear it.
 * GitLab never shows the token, not even whether one is set, so it cannot be compared: a token added
 * to an existing hook's entry takes a rotation to be sent.
 *
 * Custom headers follow GitLab's rules too (lib/api/helpers/web_hooks_helpers.rb: a PUT's
 * `custom_headers` are merged into the hook's; app/models/concerns/web_hooks/hook.rb,
 * `reset_custom_headers`: an update that changes the URL clears them all, those sent with it
 * included): a header is added or rotated by a PUT that carries it, removed by `DELETE
 * …/hooks/:hook_id/custom_headers/:key`, and after a URL change every managed header is sent again
 * by a second PUT.
 */

const KIND = "gitlab_hook";

export interface HookSite {
  scope: string;
  /** The hooks' collection path. */
  path: string;
  owner: HookOwner;
}

function secretRef(secret: Secret): SecretRef {
  return { $secret: secret.source };
}

/** The hook as it should be: the live values with the desired fields laid over them. */
function targetOf(desired: GitlabHookSettings, live: CanonicalHook | null): CanonicalHook {
  const base: CanonicalHook = live ?? {
    url: desired.url,
    name: "",
    description: "",
    // GitLab's defaults for a hook created without them: push events only, TLS verified.
    events: ["push"],
    enable_ssl_verification: true,
    branch_filter: "",
    branch_filter_strategy: "wildcard",
    custom_webhook_template: "",
  };
  // A filter written without its strategy is a wildcard filter where the hook had none to apply.
  const strategy =
    desired.branch_filter_strategy ??
    (desired.branch_filter && base.branch_filter_strategy === "all_branches"
      ? "wildcard"
      : base.branch_filter_strategy);
  return {
    url: desired.url,
    name: desired.name ?? base.name,
    description: desired.description ?? base.description,
    events: desired.events ? [...new Set(desired.events)].sort() : [...base.events].sort(),
    enable_ssl_verification: desired.enable_ssl_verification ?? base.enable_ssl_verification,
    branch_filter: strategy === "all_branches" ? "" : (desired.branch_filter ?? base.branch_filter),
    branch_filter_strategy: strategy,
    custom_webhook_template: desired.custom_webhook_template ?? base.custom_webhook_template,
  };
}

/** The fields of a hook's request body that take `live` to `target` (all of them on create). */
function fieldsFor(
  live: CanonicalHook | null,
  target: CanonicalHook,
  owner: HookOwner,
): Record<string, unknown> {
  const changed = (key: keyof CanonicalHook) =>
    live === null || JSON.stringify(live[key]) !== JSON.stringify(target[key]);
  const body: Record<string, unknown> = {};
  if (changed("name") && (live !== null || target.name !== "")) body.name = target.name;
  if (changed("description") && (live !== null || target.description !== "")) {
    body.description = target.description;
  }
  if (changed("events")) Object.assign(body, eventBooleans(target.events, owner));
  if (changed("enable_ssl_verification")) {
    body.enable_ssl_verification = target.enable_ssl_verification;
  }
  if (changed("branch_filter_strategy"))
    body.branch_filter_strategy = target.branch_filter_strategy;
  if (changed("branch_filter") && target.branch_filter_strategy !== "all_branches") {
    if (live !== null || target.branch_filter !== "") {
      body.push_events_branch_filter = target.branch_filter;
    }
  }
  if (changed("custom_webhook_template") && (live !== null || target.custom_webhook_template)) {
    body.custom_webhook_template = target.custom_webhook_template;
  }
  return body;
}

function headersBody(
  headers: Record<string, Secret>,
  keys: readonly string[],
): Array<{ key: string; value: SecretRef }> {
  return keys.map((key) => ({ key, value: secretRef(headers[key]!) }));
}

/** A new hook: one POST with everything written, the token and the headers included. */
function planCreate(path: string, owner: HookOwner, desired: GitlabHookSettings): MemberChange {
  const target = targetOf(desired, null);
  const headers = desired.custom_headers;
  const body: Record<string, unknown> = {
    url: target.url,
    ...fieldsFor(null, target, owner),
    ...(desired.token ? { token: secretRef(desired.token) } : {}),
    ...(headers && Object.keys(headers).length > 0
      ? { custom_headers: headersBody(headers, Object.keys(headers).sort()) }
      : {}),
  };
  // A new hook's empty texts are nothing to review: "+ name: """ would be noise.
  const after: Record<string, unknown> = Object.fromEntries(
    Object.entries(target).filter(([, value]) => value !== ""),
  );
  if (desired.token) after.token = "set";
  if (headers) after.custom_headers = Object.keys(headers).sort();
  return {
    action: "create",
    diff: markSensitive(diffValues({}, after)),
    requests: [{ method: "POST", path, body }],
    live_fingerprint: fingerprint(null),
  };
}

/** A hook's header names: a group's listing shows them, a project's only the hook's own GET. */
async function liveHeaderKeys(
  reader: ResourceReader,
  hookPath: string,
  found: ReadHook,
): Promise<{ keys: string[] } | { error: ChangeError }> {
  const listed = headerKeys(found);
  if (listed !== undefined) return { keys: listed };
  const read = await reader.getOrAbsent(hookPath, HOOK_SHAPE);
  if (read.kind === "error") return { error: read.error };
  if (read.kind === "absent") return { error: changeError(read.detail, "GET", hookPath, 404) };
  return { keys: headerKeys(read.data) ?? [] };
}

/** What the token needs: sent when rotated or with a url change (which would clear it), else told. */
function tokenPlan(desired: GitlabHookSettings, rotation: Rotation, urlChanges: boolean) {
  const { token } = desired;
  if (token === undefined) {
    const notes = urlChanges
      ? ["GitLab clears the hook's secret token when its url changes, and none is written"]
      : [];
    return { diff: [], notes };
  }
  if (rotates(rotation, token.source)) {
    const rotated: DiffEntry = { path: "token", before: "set", after: "rotated", sensitive: true };
    return { send: secretRef(token), diff: [rotated], notes: [] };
  }
  if (urlChanges) {
    const note = "token sent again with the url change, which GitLab would otherwise clear";
    return { send: secretRef(token), diff: [], notes: [note] };
  }
  const note =
    "token is write-only and GitLab does not show whether one is set; apply with " +
    `--rotate-secrets (or --rotate-secret ${token.source}) to send it again`;
  return { diff: [], notes: [note] };
}

type HeaderBody = Array<{ key: string; value: SecretRef }>;

/**
 * What the custom headers need: the ones missing or rotated sent (with the edit, or after a url
 * change in a PUT of their own, as GitLab clears those sent with it), the ones not written deleted.
 */
function headersPlan(
  wanted: Record<string, Secret>,
  live: readonly string[],
  rotation: Rotation,
  urlChanges: boolean,
  hookPath: string,
) {
  const names = Object.keys(wanted).sort();
  const have = new Set(urlChanges ? [] : live);
  const rotated = names.filter((key) => have.has(key) && rotates(rotation, wanted[key]!.source));
  const send = names.filter((key) => !have.has(key) || rotated.includes(key));
  const diff: DiffEntry[] = [
    ...diffValues({ custom_headers: [...live] }, { custom_headers: names }),
    ...rotated.map((key): DiffEntry => ({
      path: `custom_headers.${key}`,
      before: "set",
      after: "rotated",
      sensitive: true,
    })),
  ];
  const body: HeaderBody | undefined = send.length > 0 ? headersBody(wanted, send) : undefined;
  const deletes: PlannedRequest[] = urlChanges
    ? []
    : live
        .filter((key) => !names.includes(key))
        .map((key) => ({
          method: "DELETE",
          path: `${hookPath}/custom_headers/${encodeURIComponent(key)}`,
        }));
  const notes =
    urlChanges && body !== undefined
      ? ["custom headers sent again after the url change, which GitLab clears"]
      : [];
  return {
    withEdit: urlChanges ? undefined : body,
    afterEdit: urlChanges ? body : undefined,
    deletes,
    diff,
    notes,
  };
}

/** What one desired hook needs against the live one it matched (or none). */
async function planHook(
  reader: ResourceReader,
  site: HookSite,
  desired: GitlabHookSettings,
  found: ReadHook | undefined,
  rotation: Rotation,
): Promise<MemberChange> {
  const { path, owner } = site;
  if (found === undefined) {
    return desired.absent
      ? { live_fingerprint: fingerprint(null) }
      : planCreate(path, owner, desired);
  }
  const live = fromRead(found, owner);
  if (desired.absent) return deletion(site, found, live, "absent: true in the desired state");
  const hookPath = `${path}/${found.id}`;
  let liveHeaders: string[] | undefined;
  if (desired.custom_headers !== undefined) {
    const read = await liveHeaderKeys(reader, hookPath, found);
    if ("error" in read) return { error: read.error };
    liveHeaders = read.keys;
  }
  const target = targetOf(desired, live);
  const urlChanges = target.url !== live.url;
  const token = tokenPlan(desired, rotation, urlChanges);
  const headers =
    desired.custom_headers !== undefined && liveHeaders !== undefined
      ? headersPlan(desired.custom_headers, liveHeaders, rotation, urlChanges, hookPath)
      : undefined;
  const first: Record<string, unknown> = {
    ...fieldsFor(live, target, owner),
    ...(token.send ? { token: token.send } : {}),
    ...(headers?.withEdit ? { custom_headers: headers.withEdit } : {}),
  };
  const requests: PlannedRequest[] = [
    // The documentation's tables mark `url` required on an edit: it is always sent (an unchanged
    // url clears nothing).
    ...(Object.keys(first).length > 0 || urlChanges
      ? [{ method: "PUT" as const, path: hookPath, body: { url: target.url, ...first } }]
      : []),
    ...(headers?.deletes ?? []),
    ...(headers?.afterEdit
      ? [
          {
            method: "PUT" as const,
            path: hookPath,
            body: { url: target.url, custom_headers: headers.afterEdit },
          },
        ]
      : []),
  ];
  const notes = [
    ...token.notes,
    ...(headers?.notes ?? []),
    ...(urlChanges && headers === undefined
      ? ["GitLab removes the hook's custom headers when its url changes, and none are written"]
      : []),
  ];
  const planned = {
    ...(notes.length > 0 ? { notes } : {}),
    live_fingerprint: fingerprint({ ...live, custom_headers: liveHeaders ?? null }),
  };
  if (requests.length === 0) return { action: "no-op", diff: [], requests: [], ...planned };
  const diff = [...diffValues(live, target), ...token.diff, ...(headers?.diff ?? [])];
  return { action: "update", diff: markSensitive(diff), requests, ...planned };
}

/** The token and header values are write-only: their diff entries never show a value. */
function markSensitive(diff: DiffEntry[]): DiffEntry[] {
  return diff.map((entry) =>
    entry.path === "token" || entry.path.startsWith("custom_headers.")
      ? { ...entry, sensitive: true }
      : entry,
  );
}

function deletion(site: HookSite, hook: ReadHook, live: CanonicalHook, note: string): MemberChange {
  return {
    action: "delete",
    diff: diffValues(live, {}),
    requests: [{ method: "DELETE", path: `${site.path}/${hook.id}` }],
    live_fingerprint: fingerprint(live),
    notes: [note],
  };
}

/**
 * A pinned hook is the hook of its id. An unpinned one is the hook at its url among those no desired
 * hook pins; several there is an error, never a pick (GitLab lets hooks share a url).
 */
function matchOf(
  desired: GitlabHookSettings,
  live: readonly ReadHook[],
  pinned: ReadonlySet<number>,
  site: HookSite,
): Match<ReadHook> {
  if (desired.id !== undefined) {
    const hook = live.find((candidate) => candidate.id === desired.id);
    if (hook || desired.absent) return { live: hook };
    return {
      error: changeError(
        `hook id ${desired.id} does not exist in ${site.scope}`,
        "GET",
        site.path,
        404,
      ),
    };
  }
  const atUrl = live.filter((hook) => !pinned.has(hook.id) && hook.url === desired.url);
  if (atUrl.length < 2) return { live: atUrl[0] };
  const ids = atUrl.map((hook) => hook.id).join(", ");
  return {
    error: changeError(
      `${atUrl.length} hooks of ${site.scope} have this url (ids ${ids}): pin the one to manage with id`,
      "GET",
      site.path,
      200,
    ),
  };
}

export interface GitlabHookPlanInput {
  reader: ResourceReader;
  site: HookSite;
  mode: "additive" | "authoritative";
  hooks: GitlabHookSettings[];
  rotation: Rotation;
  deleted: readonly Change[];
}

/**
 * Lists a project's or group's hooks once and plans every desired hook against them. Authoritative
 * mode deletes the live hooks no desired hook is about (an absent one included: it deletes its own).
 */
export function planGitlabHooks({
  reader,
  site,
  mode,
  hooks,
  rotation,
  deleted,
}: GitlabHookPlanInput): Promise<Change[]> {
  const pinned = new Set(hooks.flatMap((hook) => (hook.id === undefined ? [] : [hook.id])));
  const unpinnedUrls = new Set(hooks.filter((hook) => hook.id === undefined).map((h) => h.url));
  const shared = sharedUrls(hooks.map((hook) => hook.url));
  return planCollection<GitlabHookSettings, ReadHook>({
    reader,
    scope: site.scope,
    kind: KIND,
    what: `the hooks of ${site.scope}`,
    mode,
    members: hooks.map((hook) => ({ name: hookName(hook.url, hook.id, shared), desired: hook })),
    path: site.path,
    list: () => reader.list(site.path, undefined, HOOK_SHAPE),
    nameOf: (hook) => hook.url,
    match: ({ desired }, live) => matchOf(desired, live, pinned, site),
    kept: (hook) => pinned.has(hook.id) || unpinnedUrls.has(hook.url),
    plan: ({ desired }, hook) => planHook(reader, site, desired, hook, rotation),
    remove: (hook, removed) => {
      const urls = sharedUrls([...hooks.map((h) => h.url), ...removed.map((other) => other.url)]);
      return {
        name: hookName(hook.url, hook.id, urls),
        change: deletion(
          site,
          hook,
          fromRead(hook, site.owner),
          `hook id ${hook.id} is not in the desired state (webhooks mode: authoritative)`,
        ),
      };
    },
    deleted,
    // A hook is deleted by its id: it is gone once no hook of that id is listed.
    stillListed: (change, live) =>
      live.some((hook) =>
        change.requests.some(
          (request) => request.method === "DELETE" && request.path === `${site.path}/${hook.id}`,
        ),
      ),
  });
}
