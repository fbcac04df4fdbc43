/**
 * Who a ruleset names, as the configuration writes them: bypass actors and the actors inside rules,
 * by role, team slug or app slug (resolved to the service's ids when planning).
 */
import * as z from "zod";
import { closed, name } from "../../config/fields.js";

/**
 * The repository roles a bypass list may name, with GitHub's ids for them (not published by GitHub;
 * maintain 2, write 4, admin 5: github/rest-api-description#7111, terraform-provider-github#1916),
 * and organization owners. Only maintain, write and admin may bypass (GitHub's docs, "Granting
 * bypass permissions for your ruleset").
 */
export const ROLE_IDS: Readonly<Record<string, number>> = { maintain: 2, write: 4, admin: 5 };
export const ORGANIZATION_ADMIN = "OrganizationAdmin";
const ROLES: [string, ...string[]] = [ORGANIZATION_ADMIN, ...Object.keys(ROLE_IDS)];

const bypassMode = z
  .enum(["always", "pull_request", "exempt"])
  .optional()
  .describe(
    "always (default); pull_request: only through pull requests (branch rulesets); exempt: the rules do not run for this actor.",
  );

const ACTOR_KINDS = ["role", "team", "app", "deploy_keys"] as const;

function oneActor(
  value: Record<string, unknown>,
  context: z.RefinementCtx,
  kinds: readonly string[],
) {
  const given = kinds.filter((kind) => value[kind] !== undefined);
  if (given.length !== 1) {
    context.addIssue({
      code: "custom",
      path: [],
      message: `give exactly one of ${kinds.join(", ")}${given.length > 1 ? ` (found ${given.join(" and ")})` : ""}`,
    });
  }
}

const role = z
  .enum(ROLES)
  .describe(
    `A repository role (admin, maintain, write) or ${ORGANIZATION_ADMIN} (organization owners).`,
  );

export const bypassActor = closed({
  role: role.optional(),
  team: name("A team slug of the organization.").optional(),
  app: name("A GitHub App slug.").optional(),
  deploy_keys: z.literal(true).optional().describe("true: deploy keys may bypass."),
  bypass_mode: bypassMode,
})
  .superRefine((value, context) => oneActor(value, context, ACTOR_KINDS))
  .describe("Who may bypass the ruleset: one of role, team, app or deploy_keys.");

export type BypassActorSettings = z.infer<typeof bypassActor>;

/** An actor named inside a rule (review dismissal): a role, team or app. */
export const ruleActor = closed({
  role: z
    .enum(Object.keys(ROLE_IDS) as [string, ...string[]])
    .optional()
    .describe("A repository role: admin, maintain or write."),
  team: name("A team slug of the organization.").optional(),
  app: name("A GitHub App slug (installed on the organization).").optional(),
}).superRefine((value, context) => oneActor(value, context, ["role", "team", "app"]));

export type RuleActorSettings = z.infer<typeof ruleActor>;
