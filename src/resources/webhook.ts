import type { WebhookSettings } from "../config/model.js";
import type { Change, DiffEntry, PlannedRequest, SecretRef } from "../core/plan.js";
import type { Secret } from "../core/secret.js";
import { changeError, newChange, repoPath, type RepoRef, type ResourceReader } from "./context.js";
import { diffValues } from "./diff.js";
import { fingerprint } from "./fingerprint.js";

/**
 * Repository webhooks, keyed by delivery URL (or a pinned id).
 *
 * Secrets (`config.secret`, `authorization_header`) are write-only: the service masks them when read,
 * so they are compared by presence only and a mask is never written back. To rotate them the user
 * bumps `secret_version`; forgeplan remembers the version it last wrote in the hook's own config under
 * `forgeplan_secret_version` (config values are plain strings that read back unmasked), so rotation
 * needs no state file.
 */
export const SECRET_VERSION_KEY = "forgeplan_secret_version";

/** Config keys that have their own canonical fields and are not compared as extra config. */
const OWN_KEYS = new Set(["url", "content_type", "secret", SECRET_VERSION_KEY]);

export interface CanonicalHook {
  url: string;
  content_type: string;
  events: string[];
  active: boolean;
  branch_filter: string;
  config: Record<string, string>;
  secret: "set" | "unset";
  authorization_header: "set" | "unset";
  secret_version?: string;
}

interface ReadHook {
  id: number;
  url?: string;
  content_type?: string;
  active?: boolean;
  events?: string[];
  branch_filter?: string;
  authorization_header?: string | null;
  config?: Record<string, string> | null;
}

const CREATE_DEFAULTS = {
  content_type: "json",
  events: ["push"],
  active: true,
  branch_filter: "*",
};

function eventSet(events: readonly string[] | undefined): string[] {
  return [...new Set(events ?? [])].sort();
}

/** A config value written as "" removes the key (docs/service-decisions.md): it must read back absent. */
function withoutEmpty(config: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== ""));
}

function extraConfig(config: Record<string, string> | null | undefined): Record<string, string> {
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(config ?? {})) {
    if (!OWN_KEYS.has(key)) extra[key] = value;
  }
  return extra;
}

export function fromRead(hook: ReadHook): CanonicalHook {
  const config = hook.config ?? {};
  const canonical: CanonicalHook = {
    url: config.url ?? hook.url ?? "",
    content_type: config.content_type ?? hook.content_type ?? CREATE_DEFAULTS.content_type,
    events: eventSet(hook.events),
    active: hook.active !== false,
    branch_filter: hook.branch_filter || CREATE_DEFAULTS.branch_filter,
    config: extraConfig(config),
    secret: config.secret ? "set" : "unset",
    authorization_header: hook.authorization_header ? "set" : "unset",
  };
  const version = config[SECRET_VERSION_KEY];
  if (version) canonical.secret_version = version;
  return canonical;
}

function secretRef(secret: Secret): SecretRef {
  return { $secret: secret.source };
}

interface WriteOnlyPlan {
  rotate: boolean;
  notes: string[];
}

/** Decides whether the write-only values must be (re)sent, and what the reviewer should be told. */
function writeOnlyPlan(desired: WebhookSettings, live: CanonicalHook | null): WriteOnlyPlan {
  const notes: string[] = [];
  const wanted = (["secret", "authorization_header"] as const).filter((key) => desired[key]);
  if (wanted.length === 0) return { rotate: false, notes };
  if (live === null) return { rotate: true, notes };
  const missing = wanted.filter((key) => live[key] === "unset");
  const versionChanged =
    desired.secret_version !== undefined && desired.secret_version !== live.secret_version;
  if (missing.length > 0 || versionChanged) return { rotate: true, notes };
  notes.push(
    `${wanted.join(" and ")} ${wanted.length > 1 ? "are" : "is"} write-only and could not be verified` +
      (desired.secret_version === undefined
        ? "; set secret_version and bump it to rotate"
        : ` (secret_version ${desired.secret_version} already written)`),
  );
  return { rotate: false, notes };
}

/** The hook as it should be: live values with the desired fields laid over them. */
export function targetOf(
  desired: WebhookSettings,
  live: CanonicalHook | null,
  rotate: boolean,
): CanonicalHook {
  const base: CanonicalHook = live ?? {
    url: desired.url,
    ...CREATE_DEFAULTS,
    events: [...CREATE_DEFAULTS.events],
    config: {},
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
    config: withoutEmpty({ ...base.config, ...extraConfig(desired.config) }),
  };
  if (rotate) {
    if (desired.secret) target.secret = "set";
    if (desired.authorization_header) target.authorization_header = "set";
    if (desired.secret_version !== undefined) target.secret_version = desired.secret_version;
  }
  return target;
}

const WRITE_ONLY_PATHS = new Set(["secret", "authorization_header"]);

function markSensitive(diff: DiffEntry[]): DiffEntry[] {
  return diff.map((entry) =>
    WRITE_ONLY_PATHS.has(entry.path) ? { ...entry, sensitive: true } : entry,
  );
}

/** The PATCH (or POST) body carrying exactly the fields that differ; secrets as references. */
export function toBody(
  target: CanonicalHook,
  live: CanonicalHook | null,
  desired: WebhookSettings,
  rotate: boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const config: Record<string, unknown> = {};
  if (!live || live.url !== target.url) config.url = target.url;
  if (!live || live.content_type !== target.content_type) config.content_type = target.content_type;
  for (const [key, value] of Object.entries(target.config)) {
    if (!live || live.config[key] !== value) config[key] = value;
  }
  // "" removes a key: from the live hook, or on create from the defaults the service would fill in.
  const removed = live
    ? Object.keys(live.config)
    : Object.keys(extraConfig(desired.config)).filter((key) => desired.config?.[key] === "");
  for (const key of removed) {
    if (!(key in target.config)) config[key] = "";
  }
  if (rotate && desired.secret) config.secret = secretRef(desired.secret);
  if (
    rotate &&
    target.secret_version !== undefined &&
    target.secret_version !== live?.secret_version
  ) {
    config[SECRET_VERSION_KEY] = target.secret_version;
  }
  if (Object.keys(config).length > 0) body.config = config;
  if (!live || live.events.join("\n") !== target.events.join("\n")) body.events = target.events;
  if (!live || live.active !== target.active) body.active = target.active;
  if (!live || live.branch_filter !== target.branch_filter)
    body.branch_filter = target.branch_filter;
  if (rotate && desired.authorization_header) {
    body.authorization_header = secretRef(desired.authorization_header);
  }
  return body;
}

/** Compares what a PATCH/POST sent with the hook the service answered. */
export function verifyWritten(body: unknown, response: unknown): DiffEntry[] {
  const sent = (body ?? {}) as Record<string, unknown>;
  const actual = fromRead(response as ReadHook);
  const expected: Record<string, unknown> = {};
  const got: Record<string, unknown> = {};
  const config = (sent.config ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(config)) {
    if (key === "secret") {
      expected.secret = "set";
      got.secret = actual.secret;
    } else if (key === "url" || key === "content_type") {
      expected[key] = value;
      got[key] = actual[key];
    } else if (key === SECRET_VERSION_KEY) {
      expected.secret_version = value;
      got.secret_version = actual.secret_version;
    } else {
      expected[`config.${key}`] = value === "" ? undefined : value;
      got[`config.${key}`] = actual.config[key];
    }
  }
  if (sent.events !== undefined) {
    expected.events = eventSet(sent.events as string[]);
    got.events = actual.events;
  }
  for (const key of ["active", "branch_filter"] as const) {
    if (sent[key] !== undefined) {
      expected[key] = sent[key];
      got[key] = actual[key];
    }
  }
  if (sent.authorization_header !== undefined) {
    expected.authorization_header = "set";
    got.authorization_header = actual.authorization_header;
  }
  return diffValues(expected, got);
}

export interface WebhookPlanInput {
  reader: ResourceReader;
  repo: RepoRef;
  mode: "additive" | "authoritative";
  hooks: WebhookSettings[];
}

export function hooksPath(repo: RepoRef): string {
  return `${repoPath(repo)}/hooks`;
}

/** Lists a repository's hooks once and plans every desired hook against them. */
export async function planWebhooks({
  reader,
  repo,
  mode,
  hooks,
}: WebhookPlanInput): Promise<Change[]> {
  const scope = `${repo.owner}/${repo.name}`;
  const change = (name: string): Change => newChange(reader.target, scope, "webhook", name);
  const path = hooksPath(repo);
  const listed = await reader.list<ReadHook>(path);
  if (listed.kind !== "found") {
    const error =
      listed.kind === "error"
        ? listed.error
        : changeError(
            `repository ${scope} was not found (or the token cannot see it)`,
            "GET",
            path,
            404,
          );
    return hooks.map((hook) => ({ ...change(hook.url), error }));
  }
  const live = listed.data;
  const matched = new Set<number>();
  const changes: Change[] = [];
  for (const desired of hooks) {
    const found =
      desired.id !== undefined
        ? live.find((hook) => hook.id === desired.id)
        : live.find((hook) => !matched.has(hook.id) && fromRead(hook).url === desired.url);
    const base = change(desired.url);
    if (desired.id !== undefined && !found) {
      changes.push({
        ...base,
        error: changeError(`hook id ${desired.id} does not exist in ${scope}`, "GET", path, 404),
      });
      continue;
    }
    if (found) matched.add(found.id);
    const liveHook = found ? fromRead(found) : null;
    const { rotate, notes } = writeOnlyPlan(desired, liveHook);
    const target = targetOf(desired, liveHook, rotate);
    const diff = markSensitive(diffValues(liveHook ?? {}, target));
    const withNotes = notes.length > 0 ? { notes } : {};
    base.live_fingerprint = fingerprint(liveHook);
    if (diff.length === 0 && liveHook) {
      changes.push({ ...base, ...withNotes });
      continue;
    }
    const request: PlannedRequest = found
      ? {
          method: "PATCH",
          path: `${path}/${found.id}`,
          body: toBody(target, liveHook, desired, rotate),
        }
      : { method: "POST", path, body: toBody(target, null, desired, rotate) };
    changes.push({
      ...base,
      ...withNotes,
      action: found ? "update" : "create",
      diff,
      requests: [request],
    });
  }
  if (mode === "authoritative") {
    for (const hook of live) {
      if (matched.has(hook.id)) continue;
      const canonical = fromRead(hook);
      if (hooks.some((desired) => desired.id === undefined && desired.url === canonical.url))
        continue;
      changes.push({
        ...change(canonical.url),
        action: "delete",
        diff: markSensitive(diffValues(canonical, {})),
        requests: [{ method: "DELETE", path: `${path}/${hook.id}` }],
        live_fingerprint: fingerprint(canonical),
        notes: [`hook id ${hook.id} is not in the desired state (webhooks mode: authoritative)`],
      });
    }
  }
  return changes;
}

/**
 * The desired-state entry that reproduces a live hook (used by export). Write-only values cannot be
 * read, so they are left out: an exported hook leaves its secret unmanaged.
 */
export function toSettings(hook: CanonicalHook): Omit<WebhookSettings, "origin"> {
  const settings: Omit<WebhookSettings, "origin"> = {
    url: hook.url,
    events: hook.events,
    active: hook.active,
    content_type: hook.content_type === "form" ? "form" : "json",
    branch_filter: hook.branch_filter,
  };
  if (Object.keys(hook.config).length > 0) settings.config = { ...hook.config };
  return settings;
}
