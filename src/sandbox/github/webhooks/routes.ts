import { DEFAULT_CONTENT_TYPE, configShape, mergeConfig } from "./config.js";
import { overlappingHook } from "./overlap.js";
import {
  hookNotFound,
  idParam,
  isoTime,
  noContent,
  ok,
  type RequestContext,
} from "../../core/http-support.js";
import { paginate } from "../../core/pagination.js";
import { adminRepository, assertUnlocked } from "../repo-access.js";
import type { Route } from "../../core/router.js";
import { hook } from "../shapes.js";
import type { Hook, Repository } from "../../core/world.js";

/**
 * Repository webhooks: list, read, create, edit (spec endpoint 2), delete, and read and edit the
 * config alone (GitHub's `…/hooks/{hook_id}/config`). Types and unknown members are checked against
 * GitHub's request schemas before a handler sees a body (request-rules.ts); what is left here are
 * the rules a schema cannot say. docs/service-decisions.md has the rules.
 */

const CONTENT_TYPES = new Set(["json", "form"]);

type Body = Record<string, unknown>;

/**
 * Checks a hook as it would be stored (`id` 0 for one not created yet): its config, and whether
 * another hook has its URL and an event in common (hook-overlap.ts, GitHub's documented rule).
 */
function checkHook(
  ctx: RequestContext,
  repo: Repository,
  candidate: Pick<Hook, "id" | "config" | "events">,
): void {
  const errors: string[] = [];
  const { config } = candidate;
  const url = config.url;
  if (url === undefined) errors.push("config.url: is required");
  else if (!/^https?:\/\/[^\s/]+/.test(url))
    errors.push(`config.url: '${url}' is not an http(s) URL`);
  else if (overlappingHook(repo.hooks.values(), candidate) !== undefined) {
    errors.push("Hook already exists on this repository");
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

function hookOf(ctx: RequestContext, repo: Repository): Hook {
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : repo.hooks.get(id);
  if (!found)
    throw hookNotFound(ctx, `Hook ${ctx.params.id} not found on ${repo.owner.login}/${repo.name}`);
  return found;
}

/** Finds the hook, checks the repository is writable, and stores what `edit` makes of it. */
function editHook(ctx: RequestContext, edit: (current: Hook, body: Body) => Hook): Hook {
  const { repo } = adminRepository(ctx);
  const current = hookOf(ctx, repo);
  assertUnlocked(ctx, repo);
  const updated = { ...edit(current, ctx.json()), updated_at: isoTime(ctx.now()) };
  checkHook(ctx, repo, updated);
  repo.hooks.set(updated.id, updated);
  return updated;
}

export const hookRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/hooks",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const page = paginate(ctx, [...repo.hooks.values()], "github");
      return { status: 200, body: page.items.map(hook), headers: page.headers };
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/hooks/:id",
    handler: (ctx) => ok(hook(hookOf(ctx, adminRepository(ctx).repo))),
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/hooks/:id/config",
    handler: (ctx) => ok(configShape(hookOf(ctx, adminRepository(ctx).repo).config)),
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/hooks",
    operation: "POST /repos/{owner}/{repo}/hooks",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      assertUnlocked(ctx, repo);
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
      checkHook(ctx, repo, { id: 0, config, events });
      const now = isoTime(ctx.now());
      // GitHub's create body has neither `branch_filter` nor `authorization_header`: the schema
      // refuses them, so a new hook has the defaults until a PATCH (spec endpoint 2) sets them.
      const created: Hook = {
        id: ctx.world.nextId.hook++,
        config,
        events,
        active: (body.active as boolean | undefined) ?? true,
        branch_filter: "*",
        authorization_header: undefined,
        created_at: now,
        updated_at: now,
      };
      repo.hooks.set(created.id, created);
      return ok(hook(created), 201);
    },
  },
  {
    method: "PATCH",
    pattern: "/repos/:owner/:repo/hooks/:id",
    operation: "PATCH /repos/{owner}/{repo}/hooks/{hook_id}",
    handler: (ctx) =>
      ok(
        hook(
          editHook(ctx, (current, body) => ({
            ...current,
            config:
              body.config === undefined
                ? current.config
                : mergeConfig(current.config, body.config as Body, false),
            events: editedEvents(current.events, body),
            active: (body.active as boolean | undefined) ?? current.active,
            branch_filter: (body.branch_filter as string | undefined) ?? current.branch_filter,
            authorization_header:
              body.authorization_header === undefined
                ? current.authorization_header
                : (body.authorization_header as string) || undefined,
          })),
        ),
      ),
  },
  {
    method: "PATCH",
    pattern: "/repos/:owner/:repo/hooks/:id/config",
    operation: "PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config",
    handler: (ctx) =>
      ok(
        configShape(
          editHook(ctx, (current, body) => ({
            ...current,
            config: mergeConfig(current.config, body, true),
          })).config,
        ),
      ),
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/hooks/:id",
    operation: "DELETE /repos/{owner}/{repo}/hooks/{hook_id}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const current = hookOf(ctx, repo);
      assertUnlocked(ctx, repo);
      repo.hooks.delete(current.id);
      return noContent;
    },
  },
];
