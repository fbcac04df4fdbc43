import {
  type Change,
  CREATED_ID,
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
  CREATE_DEFAULTS,
  eventSet,
  fromRead,
  type HookSite,
  markSensitive,
  readHook,
  type ReadHook,
  WRITE_ONLY,
  type WriteOnly,
} from "./canonical.js";
import { hookName, sharedUrls, type WebhookSettings } from "./settings.js";

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
 * Whether the secret on the service is the current one cannot be known, so it is sent again only
 * when asked (`--rotate-secrets`): an explicit, visible write.
 */

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

/** What differs, for the reviewer; a rotated value shows as changed although both sides read "set". */
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

/**
 * A pinned hook is the hook of its id. An unpinned one is the hook at its url among those no desired
 * hook pins; several there is an error, never a pick, as GitHub lets hooks share a url.
 */
function matchOf(
  desired: WebhookSettings,
  live: readonly ReadHook[],
  unpinned: readonly ReadHook[],
  site: HookSite,
): Match<ReadHook> {
  const { scope, path } = site;
  if (desired.id !== undefined) {
    const hook = live.find((candidate) => candidate.id === desired.id);
    if (hook) return { live: hook };
    return {
      error: changeError(`hook id ${desired.id} does not exist in ${scope}`, "GET", path, 404),
    };
  }
  const atUrl = unpinned.filter((hook) => fromRead(hook, site.owner).url === desired.url);
  if (atUrl.length < 2) return { live: atUrl[0] };
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
 * Lists a repository's or organization's hooks once and plans every desired hook against them.
 * Authoritative mode deletes the live hooks no desired hook is about: those no id pins and no
 * unpinned hook's url reaches (that hook matched the one there, or found several and is an error
 * that deletes none of them). A hook an apply deleted is still listed while a hook of its id is.
 */
export function planWebhooks({
  reader,
  site,
  mode,
  hooks,
  rotation,
  deleted = [],
}: WebhookPlanInput): Promise<Change[]> {
  const pinned = new Set(hooks.flatMap((hook) => (hook.id === undefined ? [] : [hook.id])));
  const unpinnedUrls = new Set(hooks.filter((hook) => hook.id === undefined).map((h) => h.url));
  const sharedByDesired = sharedUrls(hooks.map((hook) => hook.url));
  const unpinned = new WeakMap<readonly ReadHook[], readonly ReadHook[]>();
  const unpinnedOf = (live: readonly ReadHook[]) => {
    let found = unpinned.get(live);
    if (found === undefined) {
      found = live.filter((hook) => !pinned.has(hook.id));
      unpinned.set(live, found);
    }
    return found;
  };
  return planCollection({
    reader,
    scope: site.scope,
    kind: "webhook",
    what: "the hooks",
    mode,
    members: hooks.map((hook) => ({
      name: hookName(hook.url, hook.id, sharedByDesired),
      desired: hook,
    })),
    path: site.path,
    list: () => reader.list(site.path, undefined, { name: "webhooks", schema: readHook }),
    nameOf: (hook) => fromRead(hook, site.owner).url,
    match: ({ desired }, live) => matchOf(desired, live, unpinnedOf(live), site),
    kept: (hook) => pinned.has(hook.id) || unpinnedUrls.has(fromRead(hook, site.owner).url),
    plan: ({ desired }, hook) => planHook(desired, hook, site, rotation),
    remove: (hook, removed) => {
      const canonical = fromRead(hook, site.owner);
      // A deleted hook is suffixed whenever its url is shared, by a desired hook or another delete.
      const shared = sharedUrls([
        ...hooks.map((desired) => desired.url),
        ...removed.map((other) => fromRead(other, site.owner).url),
      ]);
      const change: MemberChange = {
        action: "delete",
        diff: markSensitive(diffValues(canonical, {})),
        requests: [{ method: "DELETE", path: `${site.path}/${hook.id}` }],
        live_fingerprint: fingerprint(canonical),
        notes: [`hook id ${hook.id} is not in the desired state (webhooks mode: authoritative)`],
      };
      return { name: hookName(canonical.url, hook.id, shared), change };
    },
    deleted,
    // No configuration names the hooks an apply deleted: one is gone once no hook of its id is.
    stillListed: (change, live) =>
      live.some((hook) =>
        change.requests.some(
          (request) => request.method === "DELETE" && request.path === `${site.path}/${hook.id}`,
        ),
      ),
  });
}
