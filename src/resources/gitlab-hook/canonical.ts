/**
 * A GitLab hook as forgeplan compares it, and what a write must read back. GitLab's Hook entity
 * (lib/api/entities/hook.rb) never shows the secret token, not even whether one is set, and shows
 * custom headers by key only (`masked_custom_headers`), and a project's listing not at all
 * (lib/api/project_hooks.rb lists with `with_custom_headers: false`; a single hook's GET and a
 * group's listing show them). So the token is never compared, and custom headers by key.
 */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { GROUP_EVENTS, type HookOwner, PROJECT_EVENTS } from "./settings.js";

export const EVENTS: Readonly<Record<HookOwner, readonly string[]>> = {
  project: PROJECT_EVENTS,
  group: GROUP_EVENTS,
};

const eventFields = Object.fromEntries(
  [...new Set([...PROJECT_EVENTS, ...GROUP_EVENTS])].map((event) => [
    `${event}_events`,
    z.boolean().optional(),
  ]),
);

/**
 * GitLab's ProjectHook / GroupHook as answered. An event field an older GitLab does not have is
 * absent, and read as off: a write that sets it then fails its verification, never passes.
 */
export const readHook = z.looseObject({
  id: z.number().int(),
  url: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  enable_ssl_verification: z.boolean(),
  push_events_branch_filter: z.string().nullish(),
  // GitLab before 16.x had no strategy: every filter was a wildcard.
  branch_filter_strategy: z.enum(["wildcard", "regex", "all_branches"]).optional(),
  custom_webhook_template: z.string().nullish(),
  custom_headers: z.array(z.looseObject({ key: z.string() })).optional(),
  ...eventFields,
});
export type ReadHook = z.infer<typeof readHook>;

export const HOOK_SHAPE = { name: "webhooks", schema: readHook };

export interface CanonicalHook {
  url: string;
  name: string;
  description: string;
  /** The events turned on, sorted. */
  events: string[];
  enable_ssl_verification: boolean;
  branch_filter: string;
  branch_filter_strategy: "wildcard" | "regex" | "all_branches";
  custom_webhook_template: string;
}

/** The events of a hook that are on, sorted (a set). */
function eventsOf(hook: ReadHook, owner: HookOwner): string[] {
  return EVENTS[owner]
    .filter((event) => (hook as Record<string, unknown>)[`${event}_events`])
    .sort();
}

export function fromRead(hook: ReadHook, owner: HookOwner): CanonicalHook {
  const strategy = hook.branch_filter_strategy ?? "wildcard";
  return {
    url: hook.url,
    name: hook.name ?? "",
    description: hook.description ?? "",
    events: eventsOf(hook, owner),
    enable_ssl_verification: hook.enable_ssl_verification,
    // GitLab clears the filter under all_branches (WebHooks::Hook#set_branch_filter_nil).
    branch_filter: strategy === "all_branches" ? "" : (hook.push_events_branch_filter ?? ""),
    branch_filter_strategy: strategy,
    custom_webhook_template: hook.custom_webhook_template ?? "",
  };
}

/** The keys of a hook's custom headers, sorted; undefined where the answer does not show them. */
export function headerKeys(hook: ReadHook): string[] | undefined {
  return hook.custom_headers?.map((header) => header.key).sort();
}

/** The event booleans of a request body: every event of `owner`'s hooks, on when listed. */
export function eventBooleans(events: readonly string[], owner: HookOwner) {
  return Object.fromEntries(
    EVENTS[owner].map((event) => [`${event}_events`, events.includes(event)]),
  );
}

/** Texts GitLab answers null when unset, which forgeplan sends and compares as "". */
const TEXTS = new Set([
  "name",
  "description",
  "custom_webhook_template",
  "push_events_branch_filter",
]);

/** A field of a hook's answer as it compares with what was sent. */
function answered(got: Record<string, unknown>, key: string): unknown {
  if (key.endsWith("_events")) return got[key] === true;
  return TEXTS.has(key) ? (got[key] ?? "") : got[key];
}

/**
 * What the answer to a create or an edit of a hook lacks of what was sent. The token cannot be
 * read back; a header by its name, where the answer shows them.
 */
export function verifyHook(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const parsed = readHook.safeParse(response);
  if (!parsed.success) {
    return [{ path: "(response)", before: "a webhook", after: "something else" }];
  }
  const sent = (request.body ?? {}) as Record<string, unknown>;
  const got = parsed.data as Record<string, unknown>;
  const expected: Record<string, unknown> = {};
  const actual: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sent)) {
    if (key === "token" || key === "custom_headers") continue;
    expected[key] = value;
    actual[key] = answered(got, key);
  }
  const headers = (sent.custom_headers as Array<{ key: string }> | undefined)?.map((h) => h.key);
  const shown = headerKeys(parsed.data);
  if (headers !== undefined && shown !== undefined) {
    expected.custom_headers = [...headers].sort();
    actual.custom_headers = headers.filter((key) => shown.includes(key)).sort();
  }
  return diffValues(expected, actual);
}
