/**
 * How webhooks are written in the configuration (`webhooks: {mode, hooks}`), and the hook as the
 * planner takes it (secrets as Secret objects).
 */
import * as z from "zod";
import { closed, httpUrl, name, positiveId, secretReference } from "../../config/fields.js";
import { defineSetting, type RuleProblem } from "../../config/spec.js";

/** What hooks of repositories and of organizations have alike. */
const hookFields = {
  url: httpUrl("https://ci.example.com/hook").describe(
    "The delivery URL; hooks are matched to the live ones by it unless id is given.",
  ),
  id: positiveId("Pins an existing hook by its id (then url is the URL to set)").optional(),
  events: z
    .array(name("An event name, or * for all."))
    .optional()
    .describe("The events that trigger the hook."),
  active: z.boolean().optional().describe("Whether deliveries are sent."),
  content_type: z.enum(["json", "form"]).optional().describe("The payload format: json or form."),
  config: z
    .strictObject(
      {
        insecure_ssl: z
          .enum(["0", "1"])
          .optional()
          .describe(
            '"1" skips verifying the TLS certificate of the delivery URL; "0" (default) verifies it.',
          ),
      },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys"
            ? issue.keys
                .map(
                  (key) =>
                    `unknown key ${JSON.stringify(key)}: the service keeps only url, content_type, secret and insecure_ssl in a hook's config (url, content_type and secret have their own keys here)`,
                )
                .join("\n")
            : undefined,
      },
    )
    .optional()
    .describe("The hook's further config: insecure_ssl."),
  secret: secretReference("The hook's signing secret").optional(),
  secret_version: z
    .never({
      error:
        "secret_version is no longer used: the service keeps no record of which secret was written; send secrets again with 'forgeplan apply --rotate-secrets'",
    })
    .optional()
    .describe("Refused: secrets are sent again with 'forgeplan apply --rotate-secrets'."),
};

/** A repository's hook also has the spec's branch filter and authorization header. */
const webhook = closed({
  ...hookFields,
  branch_filter: z
    .string()
    .optional()
    .describe("Only pushes to branches matching this filter trigger the hook."),
  authorization_header: secretReference("The Authorization header sent with deliveries").optional(),
});

const mode = z
  .enum(["additive", "authoritative"])
  .optional()
  .describe(
    "additive (default): other live hooks are left alone; authoritative: hooks not listed are deleted.",
  );

const webhooks = closed({
  mode,
  hooks: z.array(webhook).optional().describe("The hooks this repository must have."),
});

/** GitHub's organization webhooks have neither a branch filter nor an authorization header. */
const organizationWebhooks = closed({
  mode,
  hooks: z.array(closed(hookFields)).optional().describe("The hooks this organization must have."),
});

/** One desired hook as the planner takes it (secrets as Secret objects). */
export type WebhookSettings = z.output<typeof webhook>;
export type Webhooks = z.output<typeof webhooks>;
export type OrganizationWebhooks = z.output<typeof organizationWebhooks>;
/** As written in a file (secrets as `${NAME}`): what export writes. */
export type WrittenHook = z.input<typeof webhook>;
export type WrittenWebhooks = z.input<typeof webhooks>;
export type WrittenOrganizationWebhooks = z.input<typeof organizationWebhooks>;

/**
 * Hooks of one list that could not all be matched, or could not all exist. A pinned id names one
 * hook. An unpinned hook is matched by its url, so no other hook of the list may have that url;
 * hooks pinned by id may share one, as GitHub allows while their events differ ("Multiple webhooks
 * can share the same `config` as long as those webhooks do not have any `events` that overlap", the
 * description of `POST /repos/{owner}/{repo}/hooks` in @octokit/openapi). Events that are not
 * written are the live hook's, which only the plan sees.
 */
function hookListRules(value: Webhooks | OrganizationWebhooks): RuleProblem[] {
  const hooks = value.hooks ?? [];
  return hooks.flatMap((hook, index) => {
    const earlier = hooks.slice(0, index);
    return [...sameIdProblems(hook, index, earlier), ...sameUrlProblems(hook, index, earlier)];
  });
}

type Hook = NonNullable<(Webhooks | OrganizationWebhooks)["hooks"]>[number];

function sameIdProblems(hook: Hook, index: number, earlier: readonly Hook[]): RuleProblem[] {
  if (hook.id === undefined) return [];
  const first = earlier.findIndex((other) => other.id === hook.id);
  if (first < 0) return [];
  return [
    {
      path: ["hooks", index, "id"],
      message: "another hook of this repository has the same id",
      sameAs: ["hooks", first],
    },
  ];
}

function sameUrlProblems(hook: Hook, index: number, earlier: readonly Hook[]): RuleProblem[] {
  const sharing = earlier.flatMap((other, at) => (other.url === hook.url ? [at] : []));
  const unpinned =
    hook.id === undefined ? sharing[0] : sharing.find((at) => earlier[at]?.id === undefined);
  if (unpinned !== undefined) {
    return [
      {
        path: ["hooks", index, "url"],
        message:
          "another hook of this repository has the same url; hooks may share a url only when each is pinned by id",
        sameAs: ["hooks", unpinned],
      },
    ];
  }
  const overlapping = sharing.find((at) => eventsOverlap(hook.events, earlier[at]?.events));
  if (overlapping === undefined) return [];
  return [
    {
      path: ["hooks", index, "events"],
      message:
        "another hook of this repository has the same url and some of these events (* is every event); the service refuses two such hooks",
      sameAs: ["hooks", overlapping, "events"],
    },
  ];
}

/** Whether two written event lists share an event; `*` is every event. */
function eventsOverlap(
  a: readonly string[] | undefined,
  b: readonly string[] | undefined,
): boolean {
  return (a ?? []).some((x) => (b ?? []).some((y) => x === y || x === "*" || y === "*"));
}

/** The urls that more than one of `urls` has. */
export function sharedUrls(urls: readonly string[]): Set<string> {
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
export function hookName(url: string, id: number | undefined, shared: ReadonlySet<string>): string {
  return id !== undefined && shared.has(url) ? `${url}#${id}` : url;
}

/** The blocks of `validate --print`: named as the plan names them. */
function printHooks({ mode, hooks = [] }: Webhooks | OrganizationWebhooks) {
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

// The hook list is one setting: a list replaces the list before it, so two entries of one
// repository listing hooks would depend on their order.
const definesList = () => [{ id: "webhooks", path: [], what: "the webhook list" }];

export const webhooksSetting = defineSetting({
  key: "webhooks",
  schema: webhooks.describe("The repository's webhooks."),
  rules: hookListRules,
  defines: definesList,
  print: printHooks,
});

export const organizationWebhooksSetting = defineSetting({
  key: "webhooks",
  schema: organizationWebhooks.describe("The organization's webhooks."),
  rules: hookListRules,
  defines: definesList,
  print: printHooks,
});
