import { HttpError } from "../http.js";
import { grapeBoolean } from "../grape-values.js";
import type { Hook } from "./records.js";

/**
 * What GitLab's WebHook does with the attributes a create or an edit assigns
 * (app/models/concerns/web_hooks/hook.rb and lib/api/helpers/web_hooks_helpers.rb):
 *
 * - an edit assigns only the parameters given (`declared_params(include_missing: false)`), and one
 *   with none is `400 {"error": "No parameters provided"}`;
 * - `custom_headers` given to an edit are merged into the hook's (`hook.custom_headers.merge(…)`);
 * - `reset_token`: `self.token = nil if url_changed? && !encrypted_token_changed?` — an edit that
 *   omits `token` keeps it unless it changes the url (the API docs: "When you change the webhook
 *   URL, the secret token is reset and not retained"). The sandbox counts a token given as changed;
 * - `reset_custom_headers` (on update): a changed url clears every custom header, those the same
 *   edit sent included, as the callback runs after the assignment;
 * - `set_branch_filter_nil` under `all_branches`; a `regex` filter must parse (GitLab's RE2, the
 *   sandbox's JavaScript RegExp) and a bad one is `422 {"error": "Invalid branch filter given"}`;
 * - a url that is not http(s) is `422 {"error": "Invalid url given"}` (`save_hook`). The sandbox
 *   runs as an instance that allows requests to the local network from webhooks (an administrator's
 *   setting), so a loopback url is taken;
 * - a token with a newline and a template past 4,096 characters are validation errors (422,
 *   `render_validation_error!`: `{"message": {field: [...]}}`).
 */

export type Params = Record<string, unknown>;

const STRATEGIES = ["wildcard", "regex", "all_branches"] as const;

function invalid(message: string): HttpError {
  return new HttpError({ status: 422, body: { error: message } });
}

function validationError(field: string, message: string): HttpError {
  return new HttpError({ status: 422, body: { message: { [field]: [message] } } });
}

function text(value: unknown): string | null {
  return value === null ? null : String(value);
}

/** A new hook from a create's parameters, over GitLab's column defaults. */
export function created(id: number, now: string, params: Params, events: readonly string[]): Hook {
  const hook: Hook = {
    id,
    url: "",
    name: null,
    description: null,
    token: null,
    // db/structure.sql's web_hooks defaults: push_events true, every other event false.
    events: Object.fromEntries(events.map((field) => [field, field === "push_events"])),
    enable_ssl_verification: true,
    push_events_branch_filter: null,
    branch_filter_strategy: "wildcard",
    custom_webhook_template: null,
    custom_headers: new Map(),
    created_at: now,
  };
  assign(hook, params, events, false);
  return hook;
}

/** Applies an edit's parameters to the hook, or throws GitLab's answer and changes nothing. */
export function edited(hook: Hook, params: Params, events: readonly string[]): void {
  const given = Object.keys(params).filter((key) => KNOWN.has(key) || events.includes(key));
  if (given.length === 0)
    throw new HttpError({ status: 400, body: { error: "No parameters provided" } });
  const next: Hook = {
    ...hook,
    events: { ...hook.events },
    custom_headers: new Map(hook.custom_headers),
  };
  assign(next, params, events, true);
  Object.assign(hook, next);
}

const KNOWN = new Set([
  "url",
  "name",
  "description",
  "token",
  "enable_ssl_verification",
  "push_events_branch_filter",
  "branch_filter_strategy",
  "custom_webhook_template",
  "custom_headers",
]);

function assign(hook: Hook, params: Params, events: readonly string[], update: boolean): void {
  const before = hook.url;
  if (params.url !== undefined) hook.url = String(params.url);
  if (params.name !== undefined) hook.name = text(params.name);
  if (params.description !== undefined) hook.description = text(params.description);
  const tokenGiven = params.token !== undefined;
  if (tokenGiven) hook.token = text(params.token);
  for (const field of events) {
    if (params[field] !== undefined) hook.events[field] = grapeBoolean(params[field]) === true;
  }
  if (params.enable_ssl_verification !== undefined) {
    hook.enable_ssl_verification = grapeBoolean(params.enable_ssl_verification) === true;
  }
  if (params.push_events_branch_filter !== undefined) {
    hook.push_events_branch_filter = text(params.push_events_branch_filter);
  }
  const strategy = params.branch_filter_strategy;
  if (typeof strategy === "string" && (STRATEGIES as readonly string[]).includes(strategy)) {
    hook.branch_filter_strategy = strategy as Hook["branch_filter_strategy"];
  }
  if (params.custom_webhook_template !== undefined) {
    hook.custom_webhook_template = text(params.custom_webhook_template);
  }
  if (Array.isArray(params.custom_headers)) {
    if (!update) hook.custom_headers.clear();
    for (const header of params.custom_headers as Array<Record<string, unknown>>) {
      hook.custom_headers.set(String(header.key), String(header.value));
    }
  }
  // before_validation callbacks, in GitLab's order.
  const urlChanged = update && hook.url !== before;
  if (urlChanged && !tokenGiven) hook.token = null;
  if (urlChanged) hook.custom_headers.clear();
  if (hook.branch_filter_strategy === "all_branches") hook.push_events_branch_filter = null;
  validate(hook);
}

function validate(hook: Hook): void {
  let url: URL | undefined;
  try {
    url = new URL(hook.url);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw invalid("Invalid url given");
  }
  if (hook.branch_filter_strategy === "regex" && hook.push_events_branch_filter) {
    try {
      new RegExp(hook.push_events_branch_filter);
    } catch {
      throw invalid("Invalid branch filter given");
    }
  }
  if (hook.token?.includes("\n")) throw validationError("token", "is invalid");
  if ((hook.custom_webhook_template?.length ?? 0) > 4096) {
    throw validationError("custom_webhook_template", "is too long (maximum is 4096 characters)");
  }
}
