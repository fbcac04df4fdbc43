import { HOOK_CONFIG_KEYS, type HookConfig } from "./records.js";

/** How a webhook's config is written and read (its keys and type are in records.ts). */

/** GitHub's documented default for a created hook: "The default is `form`" (webhook-config-content-type). */
export const DEFAULT_CONTENT_TYPE = "form";

export const SECRET_MASK = "********";

/**
 * How a hook's config changes when a body sends `sent`: keys sent replace their values, `""` removes a
 * key (docs/service-decisions.md), unknown keys are dropped, and `insecure_ssl`, which GitHub's schema
 * also takes as a number, is kept as the string GitHub reads back.
 *
 * `keepSecret: false` is GitHub's rule for `PATCH /repos/{owner}/{repo}/hooks/{hook_id}`: "If you
 * previously had a `secret` set, you must provide the same `secret` or set a new `secret` or the
 * secret will be removed" (the operation's description in `@octokit/openapi`). A secret sent as the
 * mask that reads return becomes that literal string, as PyGithub/PyGithub#2906 observed.
 */
export function mergeConfig(
  current: HookConfig,
  sent: Readonly<Record<string, unknown>>,
  keepSecret: boolean,
): HookConfig {
  const config: HookConfig = { ...current };
  if (!keepSecret) delete config.secret;
  for (const key of HOOK_CONFIG_KEYS) {
    if (!Object.prototype.hasOwnProperty.call(sent, key)) continue;
    const value = sent[key];
    if (value === "") delete config[key];
    else config[key] = String(value);
  }
  return config;
}

/** GitHub's webhook-config read shape (`GET …/hooks/{hook_id}/config`): the secret masked. */
export function configShape(config: HookConfig): HookConfig {
  const shown: HookConfig = {};
  for (const key of HOOK_CONFIG_KEYS) {
    const value = config[key];
    if (value !== undefined) shown[key] = key === "secret" ? SECRET_MASK : value;
  }
  return shown;
}
