import {
  hookNotFound,
  idParam,
  isoTime,
  noContent,
  ok,
  type RequestContext,
  validationFailed,
} from "./http-support.js";
import { paginate } from "./pagination.js";
import { adminRepository, assertUnlocked } from "./repo-access.js";
import type { Route } from "./router.js";
import { hook } from "./shapes.js";
import type { Hook, Repository } from "./world.js";

/**
 * Repository webhooks: list, read, create, edit (spec endpoint 2) and delete. `config` merges key by
 * key on PATCH (docs/service-decisions.md); the other fields replace their values.
 */

const CONTENT_TYPES = new Set(["json", "form"]);

type Check = (value: unknown) => boolean;
const isBoolean: Check = (value) => typeof value === "boolean";
const isString: Check = (value) => typeof value === "string";
const isStringArray: Check = (value) => Array.isArray(value) && value.every(isString);

const FIELD_TYPES: Record<string, [Check, string]> = {
  active: [isBoolean, "a boolean"],
  authorization_header: [isString, "a string"],
  branch_filter: [isString, "a string"],
  events: [isStringArray, "an array of strings"],
};

/** Type checks of a create/edit body; unknown members are ignored, as GitHub ignores them. */
function checkBody(body: Record<string, unknown>, errors: string[]): Record<string, string> {
  for (const [field, [check, expected]] of Object.entries(FIELD_TYPES)) {
    if (body[field] !== undefined && !check(body[field]))
      errors.push(`${field}: expected ${expected}`);
  }
  // A null-prototype object, so hostile keys such as "__proto__" stay plain data.
  const config: Record<string, string> = Object.create(null);
  if (body.config === undefined) return config;
  if (typeof body.config !== "object" || body.config === null || Array.isArray(body.config)) {
    errors.push("config: expected an object of strings");
    return config;
  }
  for (const [key, value] of Object.entries(body.config)) {
    if (typeof value === "string") config[key] = value;
    else errors.push(`config.${key}: expected a string`);
  }
  return config;
}

function checkConfig(
  repo: Repository,
  config: Record<string, string>,
  self: number,
  errors: string[],
) {
  const url = config.url;
  if (url === undefined) errors.push("config.url: is required");
  else if (!/^https?:\/\/[^\s/]+/.test(url))
    errors.push(`config.url: '${url}' is not an http(s) URL`);
  else {
    for (const other of repo.hooks.values()) {
      if (other.id !== self && other.config.url === url) {
        errors.push("Hook already exists on this repository");
      }
    }
  }
  if (config.content_type !== undefined && !CONTENT_TYPES.has(config.content_type)) {
    errors.push(`config.content_type: must be json or form, got '${config.content_type}'`);
  }
}

function hookOf(ctx: RequestContext, repo: Repository): Hook {
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : repo.hooks.get(id);
  if (!found)
    throw hookNotFound(ctx, `Hook ${ctx.params.id} not found on ${repo.owner.login}/${repo.name}`);
  return found;
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
    method: "POST",
    pattern: "/repos/:owner/:repo/hooks",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      assertUnlocked(ctx, repo);
      const body = ctx.json();
      const errors: string[] = [];
      const given = checkBody(body, errors);
      if (errors.length > 0) throw validationFailed(errors);
      const config: Record<string, string> = Object.assign(Object.create(null), {
        content_type: "json",
        insecure_ssl: "0",
      });
      // As in a PATCH, a key sent as "" is removed: that includes the defaults above.
      for (const [key, value] of Object.entries(given)) {
        if (value !== "") config[key] = value;
        else delete config[key];
      }
      checkConfig(repo, config, 0, errors);
      if (errors.length > 0) throw validationFailed(errors);
      const now = isoTime(ctx.now());
      const created: Hook = {
        id: ctx.world.nextId.hook++,
        config,
        events: [...new Set((body.events as string[] | undefined) ?? ["push"])],
        active: (body.active as boolean | undefined) ?? true,
        branch_filter: (body.branch_filter as string | undefined) ?? "*",
        authorization_header: (body.authorization_header as string | undefined) || undefined,
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
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const current = hookOf(ctx, repo);
      assertUnlocked(ctx, repo);
      const body = ctx.json();
      const errors: string[] = [];
      const given = checkBody(body, errors);
      if (errors.length > 0) throw validationFailed(errors);
      const config: Record<string, string> = Object.assign(Object.create(null), current.config);
      for (const [key, value] of Object.entries(given)) {
        if (value === "") delete config[key];
        else config[key] = value;
      }
      checkConfig(repo, config, current.id, errors);
      if (errors.length > 0) throw validationFailed(errors);
      const authorization =
        body.authorization_header === undefined
          ? current.authorization_header
          : (body.authorization_header as string) || undefined;
      const updated: Hook = {
        ...current,
        config,
        events: body.events === undefined ? current.events : [...new Set(body.events as string[])],
        active: (body.active as boolean | undefined) ?? current.active,
        branch_filter: (body.branch_filter as string | undefined) ?? current.branch_filter,
        authorization_header: authorization,
        updated_at: isoTime(ctx.now()),
      };
      repo.hooks.set(updated.id, updated);
      return ok(hook(updated));
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/hooks/:id",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const current = hookOf(ctx, repo);
      assertUnlocked(ctx, repo);
      repo.hooks.delete(current.id);
      return noContent;
    },
  },
];
