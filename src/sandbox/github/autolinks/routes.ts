import {
  type FieldError,
  idParam,
  isoTime,
  noContent,
  notFound,
  ok,
  type RequestContext,
} from "../http.js";
import type { Route } from "../http.js";
import { type Autolink, autolinksOf, autolinkIds } from "./records.js";
import type { Repository } from "../world/records.js";
import { adminRepository, assertUnlocked } from "../world/access.js";

/**
 * A repository's autolink references: list, read, create and delete — GitHub has no update for
 * one. "Information about autolinks are only available to repository administrators" (the list
 * operation's description), so every operation takes admin rights. The list is not paginated: the
 * operation takes no `page` or `per_page`.
 */

/**
 * GitHub's rules for a key prefix, as its 422 words them (quoted in
 * integrations/terraform-provider-github#3176): "key_prefix must only contain letters, numbers, or
 * .-_+=:/#" and "key_prefix must not end with a number".
 */
const PREFIX_CHARACTERS = /^[A-Za-z0-9.=+:/#_-]+$/;

export function autolinkShape(value: Autolink): Record<string, unknown> {
  return {
    id: value.id,
    key_prefix: value.key_prefix,
    url_template: value.url_template,
    is_alphanumeric: value.is_alphanumeric,
    updated_at: value.updated_at,
  };
}

/** What GitHub refuses in a new autolink, as its Validation Error entries. */
export function autolinkProblems(fields: {
  key_prefix: string;
  url_template: string;
}): FieldError[] {
  const errors: FieldError[] = [];
  const prefix = (message: string): FieldError => ({
    resource: "KeyLink",
    code: "custom",
    field: "key_prefix",
    message,
  });
  if (!PREFIX_CHARACTERS.test(fields.key_prefix)) {
    errors.push(prefix("key_prefix must only contain letters, numbers, or .-_+=:/#"));
  }
  if (/[0-9]$/.test(fields.key_prefix))
    errors.push(prefix("key_prefix must not end with a number"));
  // "The URL must contain `<num>` for the reference number" (the create operation's schema).
  if (!fields.url_template.includes("<num>")) {
    errors.push({
      resource: "KeyLink",
      code: "custom",
      field: "url_template",
      message: "url_template must contain <num>",
    });
  }
  return errors;
}

/**
 * The autolink with this key prefix. Prefixes are compared as written: GitHub documents no folding
 * of case for them (docs/service-decisions.md).
 */
export function autolinkWithPrefix(repo: Repository, prefix: string): Autolink | undefined {
  for (const autolink of autolinksOf(repo).values()) {
    if (autolink.key_prefix === prefix) return autolink;
  }
  return undefined;
}

function autolinkOf(ctx: RequestContext, repo: Repository): Autolink {
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : autolinksOf(repo).get(id);
  if (!found) throw notFound();
  return found;
}

export const autolinkRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/autolinks",
    handler: (ctx) => ok([...autolinksOf(adminRepository(ctx).repo).values()].map(autolinkShape)),
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/autolinks/:id",
    handler: (ctx) => ok(autolinkShape(autolinkOf(ctx, adminRepository(ctx).repo))),
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/autolinks",
    operation: "POST /repos/{owner}/{repo}/autolinks",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      assertUnlocked(ctx, repo);
      const body = ctx.json() as {
        key_prefix: string;
        url_template: string;
        is_alphanumeric?: boolean;
      };
      const errors = autolinkProblems(body);
      if (errors.length > 0) throw ctx.refused(errors);
      // GitHub's answer to a prefix in use (integrations/terraform-provider-github#2699).
      if (autolinkWithPrefix(repo, body.key_prefix) !== undefined) {
        throw ctx.refused([{ resource: "KeyLink", code: "already_exists", field: "key_prefix" }]);
      }
      const created: Autolink = {
        id: autolinkIds(ctx.world).next++,
        key_prefix: body.key_prefix,
        url_template: body.url_template,
        // "default": true in the operation's request schema.
        is_alphanumeric: body.is_alphanumeric ?? true,
        updated_at: isoTime(ctx.now()),
      };
      autolinksOf(repo).set(created.id, created);
      return {
        status: 201,
        body: autolinkShape(created),
        headers: {
          Location: `${ctx.base}/repos/${repo.owner.login}/${repo.name}/autolinks/${created.id}`,
        },
      };
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/autolinks/:id",
    operation: "DELETE /repos/{owner}/{repo}/autolinks/{autolink_id}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const autolink = autolinkOf(ctx, repo);
      assertUnlocked(ctx, repo);
      autolinksOf(repo).delete(autolink.id);
      return noContent;
    },
  },
];
