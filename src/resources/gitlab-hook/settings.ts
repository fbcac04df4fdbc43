/**
 * How GitLab webhooks are written, for a project (`projects[].webhooks`) and for a group
 * (`groups[].webhooks`): `webhooks: {mode, hooks: [...]}`, the shape of the GitHub `webhooks` key, so
 * one model is written for both services. A hook is matched to the live one by its delivery URL
 * (GitLab, like GitHub, lets hooks share a URL: then `id` pins the one meant).
 *
 * Events are written as a list of names (`[push, merge_requests]`), as GitHub's are, rather than as
 * GitLab's booleans: a hook's events are one set, compared as a set; a name GitLab has no field for
 * is an error here that names the ones it has; and the kind sends every boolean the endpoint takes,
 * so the live set is exactly the one written whatever GitLab's defaults are.
 */
import * as z from "zod";
import { closed, httpUrl, positiveId, secretReference } from "../../config/fields.js";
import { defineSetting, type PrintBlock, type RuleProblem } from "../../config/spec.js";
import { modeBlock, modeField } from "../collection.js";

/**
 * The events of a project hook: the booleans of `POST`/`PUT /projects/:id/hooks` in GitLab's OpenAPI
 * description (postApiV4ProjectsIdHooks, putApiV4ProjectsIdHooksHookId), named without `_events`.
 * `vulnerability_events` is left out: an Ultimate-only field the documentation's tables do not list.
 */
export const PROJECT_EVENTS = [
  "push",
  "tag_push",
  "merge_requests",
  "issues",
  "confidential_issues",
  "note",
  "confidential_note",
  "job",
  "pipeline",
  "wiki_page",
  "deployment",
  "feature_flag",
  "releases",
  "milestone",
  "emoji",
  "resource_access_token",
] as const;

/**
 * The events of a group hook: the booleans of lib/api/group_hooks.rb's `group_hook_properties`
 * (GitLab's group hooks API), which has no `milestone_events` and adds project, subgroup and
 * member events; `vulnerability_events` left out as for projects.
 */
export const GROUP_EVENTS = [
  "push",
  "tag_push",
  "merge_requests",
  "issues",
  "confidential_issues",
  "note",
  "confidential_note",
  "job",
  "pipeline",
  "wiki_page",
  "deployment",
  "feature_flag",
  "releases",
  "emoji",
  "resource_access_token",
  "project",
  "subgroup",
  "member",
] as const;

export type HookOwner = "project" | "group";

/** An HTTP header name (RFC 9110's token characters). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

function hookSchema(events: readonly [string, ...string[]], owner: HookOwner) {
  return closed({
    url: httpUrl("https://ci.example.com/hook").describe(
      "The delivery URL; hooks are matched to the live ones by it unless id is given.",
    ),
    id: positiveId("Pins an existing hook by its id (then url is the URL to set)").optional(),
    absent: z
      .literal(true)
      .optional()
      .describe("true: no hook at this url (or of this id) may exist; it is deleted."),
    name: z.string().max(255).optional().describe("The hook's name (GitLab 17.1 and later)."),
    description: z
      .string()
      .max(2048)
      .optional()
      .describe("The hook's description (GitLab 17.1 and later)."),
    events: z
      .array(z.enum(events as [string, ...string[]]))
      .optional()
      .describe(
        `The events that trigger the hook (GitLab's <name>_events fields; the others are turned off): ${events.join(", ")}.`,
      ),
    enable_ssl_verification: z
      .boolean()
      .optional()
      .describe("Whether GitLab verifies the TLS certificate of the delivery URL."),
    branch_filter: z
      .string()
      .max(255)
      .optional()
      .describe(
        'Only pushes to branches matching this filter trigger push events (GitLab\'s push_events_branch_filter); "" for every branch.',
      ),
    branch_filter_strategy: z
      .enum(["wildcard", "regex", "all_branches"])
      .optional()
      .describe(
        "How branch_filter is read: wildcard (GitLab's default), regex, or all_branches (no filter).",
      ),
    token: secretReference(
      "The secret token GitLab sends in X-Gitlab-Token (write-only: sent on create and when rotated)",
    ).optional(),
    custom_headers: z
      .record(
        z.string().regex(HEADER_NAME, { error: "expected an HTTP header name" }),
        secretReference("The header's value (write-only: sent when added and when rotated)"),
      )
      .optional()
      .describe(
        "Headers GitLab sends with every delivery, by name; values are write-only secrets. Headers not listed are removed.",
      ),
    custom_webhook_template: z
      .string()
      .max(4096)
      .optional()
      .describe('The payload template ({"event":"{{object_kind}}"}); "" sends GitLab\'s payload.'),
  }).describe(`A ${owner} webhook.`);
}

const projectHook = hookSchema(PROJECT_EVENTS, "project");
const groupHook = hookSchema(GROUP_EVENTS, "group");

function hooksSchema(hook: typeof projectHook | typeof groupHook, owner: HookOwner) {
  return closed({
    mode: modeField("hooks"),
    hooks: z.array(hook).optional().describe(`The hooks this ${owner} must (not) have.`),
  });
}

const projectHooks = hooksSchema(projectHook, "project");
const groupHooks = hooksSchema(groupHook, "group");

/** One desired hook as the planner takes it (secrets as Secret objects). */
export type GitlabHookSettings = z.output<typeof projectHook> | z.output<typeof groupHook>;
export type GitlabHooks = z.output<typeof projectHooks> | z.output<typeof groupHooks>;
/** As written in a file (secrets as `${NAME}`): what export writes. */
export type WrittenGitlabHook = z.input<typeof projectHook>;
export type WrittenGitlabHooks = z.input<typeof projectHooks>;

/** The fields an `absent: true` hook may have beside it: only what says which hook. */
const NAMING = new Set(["url", "id", "absent"]);

/**
 * Hooks of one list that could not all be matched or could not all hold: two with one id; an
 * unpinned hook whose url another has (GitLab lets hooks share a url: pin each by id); an absent
 * hook with settings; a filter under `all_branches`, which GitLab clears (a perpetual diff); a
 * regex filter that does not parse.
 */
function hookRules(value: GitlabHooks): RuleProblem[] {
  const hooks = value.hooks ?? [];
  return hooks.flatMap((hook, index): RuleProblem[] => {
    const at = (key: string) => ["hooks", index, key];
    const earlier = hooks.slice(0, index);
    const problems: RuleProblem[] = [];
    const sameId = earlier.findIndex((other) => hook.id !== undefined && other.id === hook.id);
    if (sameId >= 0) {
      problems.push({
        path: at("id"),
        message: "another hook of this list has the same id",
        sameAs: ["hooks", sameId],
      });
    }
    const sameUrl = earlier.findIndex(
      (other) => other.url === hook.url && (other.id === undefined || hook.id === undefined),
    );
    if (sameUrl >= 0) {
      problems.push({
        path: at("url"),
        message:
          "another hook of this list has the same url; hooks may share a url only when each is pinned by id",
        sameAs: ["hooks", sameUrl],
      });
    }
    if (hook.absent) {
      const extra = Object.keys(hook).filter((key) => !NAMING.has(key));
      for (const key of extra) {
        problems.push({ path: at(key), message: "an absent hook has no settings" });
      }
    }
    if (hook.branch_filter_strategy === "all_branches" && hook.branch_filter) {
      problems.push({
        path: at("branch_filter"),
        message: 'all_branches has no filter: GitLab clears it (write "" or another strategy)',
      });
    }
    if (hook.branch_filter_strategy === "regex" && hook.branch_filter) {
      try {
        new RegExp(hook.branch_filter);
      } catch {
        problems.push({ path: at("branch_filter"), message: "not a regular expression" });
      }
    }
    return problems;
  });
}

/**
 * The name of a hook change: its url, or `<url>#<id>` when another hook of the list is pinned at
 * that url, so that no address appears twice in a plan (the GitHub twin's rule).
 */
export function hookName(url: string, id: number | undefined, shared: ReadonlySet<string>): string {
  return id !== undefined && shared.has(url) ? `${url}#${id}` : url;
}

/** The urls that more than one of `urls` has. */
export function sharedUrls(urls: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const url of urls) (seen.has(url) ? shared : seen).add(url);
  return shared;
}

function printHooks({ mode, hooks = [] }: GitlabHooks): PrintBlock[] {
  const shared = sharedUrls(hooks.map((hook) => hook.url));
  return [
    modeBlock("gitlab_hook", mode),
    // An empty list is a value too (authoritative: no hooks at all): shown with its place.
    ...(hooks.length === 0 ? [{ kind: "gitlab_hook", name: "*", path: ["hooks"] }] : []),
    ...hooks.map((hook, index): PrintBlock => ({
      kind: "gitlab_hook",
      name: hookName(hook.url, hook.id, shared),
      path: ["hooks", index],
      ...(hook.absent ? { means: [["must be absent", true]] } : {}),
    })),
  ];
}

// Authoritative mode is about the whole list: one setting, defined once per project or group.
const definesList = () => [{ id: "webhooks", path: [], what: "the webhook list" }];
// The token and every custom header value are secret references wherever they are written.
const SECRET_PATHS = [
  ["hooks", "*", "token"],
  ["hooks", "*", "custom_headers", "*"],
] as const;

export const projectHooksSetting = defineSetting({
  key: "webhooks",
  schema: projectHooks.describe(
    "The project's webhooks (GitLab): mode (additive or authoritative) and hooks matched by url.",
  ),
  rules: hookRules,
  defines: definesList,
  print: printHooks,
  secrets: SECRET_PATHS,
});

export const groupHooksSetting = defineSetting({
  key: "webhooks",
  schema: groupHooks.describe(
    "The group's webhooks (GitLab Premium): mode (additive or authoritative) and hooks matched by url.",
  ),
  rules: hookRules,
  defines: definesList,
  print: printHooks,
  secrets: SECRET_PATHS,
});
