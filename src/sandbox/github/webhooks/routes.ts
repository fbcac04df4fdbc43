import { DEFAULT_CONTENT_TYPE, configShape, mergeConfig } from "./config.js";
import { overlappingHook } from "./overlap.js";
import { hookNotFound, idParam, isoTime, noContent, ok, type RequestContext } from "../http.js";
import { paginate } from "../../core/pagination.js";
import { administeredOrganization } from "../world/access.js";
import { adminRepository, assertUnlocked } from "../world/access.js";
import type { Route } from "../http.js";
import { hook, organizationHook } from "./shapes.js";
import { type Hook, repositoryHooksOf, organizationHooksOf, newHookId } from "./records.js";

/**
 * Webhooks of repositories and of organizations: list, read, create, edit (spec endpoint 2 for a
 * repository), delete, and read and edit the config alone (GitHub's `…/hooks/{hook_id}/config`).
 * Both follow GitHub's rules the same way; a repository's hook also has the spec's `branch_filter`
 * and `authorization_header`. Types and unknown members are checked against GitHub's request
 * schemas before a handler sees a body (request-rules.ts); what is left here are the rules a schema
 * cannot say. docs/service-decisions.md has the rules.
 */

const CONTENT_TYPES = new Set(["json", "form"]);

type Body = Record<string, unknown>;

/** Whose hooks a path names, found with the caller's rights checked. */
interface HookOwner {
  hooks: Map<number, Hook>;
  /** For messages: "repository" or "organization". */
  noun: string;
  /** For messages: acme/api, acme. */
  name: string;
  /** The hook as the owner's read answers it. */
  shape(hook: Hook): unknown;
  /** Throws when the owner cannot be written now (a repository a migration locks). */
  assertWritable(): void;
}

/**
 * Checks a hook as it would be stored (`id` 0 for one not created yet): its config, and whether
 * another hook has its URL and an event in common (overlap.ts, GitHub's documented rule).
 */
function checkHook(
  ctx: RequestContext,
  owner: HookOwner,
  candidate: Pick<Hook, "id" | "config" | "events">,
): void {
  const errors: string[] = [];
  const { config } = candidate;
  const url = config.url;
  if (url === undefined) errors.push("config.url: is required");
  else if (!/^https?:\/\/[^\s/]+/.test(url))
    errors.push(`config.url: '${url}' is not an http(s) URL`);
  else if (overlappingHook(owner.hooks.values(), candidate) !== undefined) {
    errors.push(`Hook already exists on this ${owner.noun}`);
  }
  if (config.content_type !== undefined && !CONTENT_TYPES.has(config.content_type)) {
    errors.push(`config.content_type: must be json or form, got '${config.content_type}'`);
  }
  if (errors.length > 0) throw ctx.invalid(errors, "Hook");
}

function unique(events: readonly string[]): string[] {
  return [...new Set(events)];
}

/** `events` replaces the list; GitHub's `add_events` and `remove_events` then edit it. */
function editedEvents(current: readonly string[], body: Body): string[] {
  const base = (body.events as string[] | undefined) ?? current;
  const removed = new Set((body.remove_events as string[] | undefined) ?? []);
  const added = (body.add_events as string[] | undefined) ?? [];
  return unique([...base, ...added]).filter((event) => !removed.has(event));
}

function hookOf(ctx: RequestContext, owner: HookOwner): Hook {
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : owner.hooks.get(id);
  if (!found) throw hookNotFound(ctx, `Hook ${ctx.params.id} not found on ${owner.name}`);
  return found;
}

/** Finds the hook, checks its owner is writable, and stores what `edit` makes of it. */
function editHook(
  ctx: RequestContext,
  owner: HookOwner,
  edit: (current: Hook, body: Body) => Hook,
): Hook {
  const current = hookOf(ctx, owner);
  owner.assertWritable();
  const updated = { ...edit(current, ctx.json()), updated_at: isoTime(ctx.now()) };
  checkHook(ctx, owner, updated);
  owner.hooks.set(updated.id, updated);
  return updated;
}

function repositoryOwner(ctx: RequestContext): HookOwner {
  const { repo } = adminRepository(ctx);
  return {
    hooks: repositoryHooksOf(repo),
    noun: "repository",
    name: `${repo.owner.login}/${repo.name}`,
    shape: hook,
    assertWritable: () => assertUnlocked(ctx, repo),
  };
}

function organizationOwner(ctx: RequestContext): HookOwner {
  const org = administeredOrganization(ctx);
  return {
    hooks: organizationHooksOf(org),
    noun: "organization",
    name: org.account.login,
    shape: (value) => organizationHook(ctx.base, org, value),
    assertWritable: () => undefined,
  };
}

/**
 * The hook routes under `prefix` (GitHub's `template`), for the owner `find` names. `ownFields`: the
 * spec's `branch_filter` and `authorization_header`, which repository hooks have.
 */
function routesFor(
  prefix: string,
  template: string,
  find: (ctx: RequestContext) => HookOwner,
  ownFields: boolean,
): Route[] {
  return [
    {
      method: "GET",
      pattern: `${prefix}/hooks`,
      handler: (ctx) => {
        const owner = find(ctx);
        const page = paginate(ctx, [...owner.hooks.values()]);
        return { status: 200, body: page.items.map(owner.shape), headers: page.headers };
      },
    },
    {
      method: "GET",
      pattern: `${prefix}/hooks/:id`,
      handler: (ctx) => {
        const owner = find(ctx);
        return ok(owner.shape(hookOf(ctx, owner)));
      },
    },
    {
      method: "GET",
      pattern: `${prefix}/hooks/:id/config`,
      handler: (ctx) => ok(configShape(hookOf(ctx, find(ctx)).config)),
    },
    {
      method: "POST",
      pattern: `${prefix}/hooks`,
      operation: `POST ${template}/hooks`,
      handler: (ctx) => {
        const owner = find(ctx);
        owner.assertWritable();
        const body = ctx.json();
        // "This parameter only accepts the value `web`" (the operation's schema in @octokit/openapi).
        if (body.name !== undefined && body.name !== "web") {
          throw ctx.invalid([`name: only 'web' is accepted, got '${String(body.name)}'`], "Hook");
        }
        // As in a PATCH, a key sent as "" is left out: that includes the defaults.
        const config = mergeConfig(
          { content_type: DEFAULT_CONTENT_TYPE, insecure_ssl: "0" },
          (body.config ?? {}) as Body,
          true,
        );
        const events = unique((body.events as string[] | undefined) ?? ["push"]);
        checkHook(ctx, owner, { id: 0, config, events });
        const now = isoTime(ctx.now());
        // GitHub's create body has neither `branch_filter` nor `authorization_header`: the schema
        // refuses them, so a new hook has the defaults until a PATCH (spec endpoint 2) sets them.
        const created: Hook = {
          id: newHookId(ctx.world),
          config,
          events,
          active: (body.active as boolean | undefined) ?? true,
          branch_filter: "*",
          authorization_header: undefined,
          created_at: now,
          updated_at: now,
        };
        owner.hooks.set(created.id, created);
        return ok(owner.shape(created), 201);
      },
    },
    {
      method: "PATCH",
      pattern: `${prefix}/hooks/:id`,
      operation: `PATCH ${template}/hooks/{hook_id}`,
      handler: (ctx) => {
        const owner = find(ctx);
        const edited = editHook(ctx, owner, (current, body) => ({
          ...current,
          config:
            body.config === undefined
              ? current.config
              : mergeConfig(current.config, body.config as Body, false),
          events: editedEvents(current.events, body),
          active: (body.active as boolean | undefined) ?? current.active,
          ...(ownFields
            ? {
                branch_filter: (body.branch_filter as string | undefined) ?? current.branch_filter,
                authorization_header:
                  body.authorization_header === undefined
                    ? current.authorization_header
                    : (body.authorization_header as string) || undefined,
              }
            : {}),
        }));
        return ok(owner.shape(edited));
      },
    },
    {
      method: "PATCH",
      pattern: `${prefix}/hooks/:id/config`,
      operation: `PATCH ${template}/hooks/{hook_id}/config`,
      handler: (ctx) =>
        ok(
          configShape(
            editHook(ctx, find(ctx), (current, body) => ({
              ...current,
              config: mergeConfig(current.config, body, true),
            })).config,
          ),
        ),
    },
    {
      method: "DELETE",
      pattern: `${prefix}/hooks/:id`,
      operation: `DELETE ${template}/hooks/{hook_id}`,
      handler: (ctx) => {
        const owner = find(ctx);
        const current = hookOf(ctx, owner);
        owner.assertWritable();
        owner.hooks.delete(current.id);
        return noContent;
      },
    },
  ];
}

export const hookRoutes: Route[] = [
  ...routesFor("/repos/:owner/:repo", "/repos/{owner}/{repo}", repositoryOwner, true),
  ...routesFor("/orgs/:org", "/orgs/{org}", organizationOwner, false),
];
