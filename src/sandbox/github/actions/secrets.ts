import { type StoredSecret, sealingKey } from "./records.js";
import { DOCS, HttpError, isoTime, noContent, notFound, ok, type RequestContext } from "../http.js";
import { paginate } from "../../core/pagination.js";
import type { Route } from "../http.js";
import { openSealed, publicKeyText, sha256 } from "./sealed-box.js";
import { nameProblem, pathName } from "./names.js";
import {
  environmentPlace,
  organizationPlace,
  type Place,
  repositoryPlace,
  selectedRepositories,
} from "./places.js";
import { sharedRepositoryRoutes } from "./variables.js";

/**
 * Actions and Dependabot secrets of repositories, environments and organizations: list, the public
 * key, read, create or update (a libsodium sealed box under that key, which the sandbox opens and
 * keeps only as a SHA-256 digest), delete, and an organization secret's selected repositories.
 * docs/service-decisions.md has the rules.
 */

/** "Secrets can store up to 48 KB of data each" (GitHub's "Limits for secrets"), and counts. */
const MAX_VALUE_BYTES = 48 * 1024;
const MAX_SECRETS = { repository: 100, environment: 100, organization: 1000 } as const;

/** The encrypted value a sealed box must be: base64, GitHub's published pattern. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

/**
 * GitHub's answer to a value that does not open under the key it names (observed:
 * integrations/terraform-provider-github#2315, rollthecloudinc/hedge#256).
 */
function improperlyEncrypted(): HttpError {
  return new HttpError({
    status: 422,
    body: {
      message: "Bad request - validation failed due to an improperly encrypted secret",
      documentation_url: DOCS,
      status: "422",
    },
  });
}

interface Area {
  /** Where the routes are: `/repos/:owner/:repo/actions/secrets` … */
  pattern: string;
  /** GitHub's path template of the same. */
  template: string;
  place: (ctx: RequestContext) => Place;
  /** Which of the place's stores and keys. */
  which: "secrets" | "dependabot";
  kind: keyof typeof MAX_SECRETS;
}

const AREAS: Area[] = [
  {
    pattern: "/repos/:owner/:repo/actions/secrets",
    template: "/repos/{owner}/{repo}/actions/secrets",
    place: repositoryPlace,
    which: "secrets",
    kind: "repository",
  },
  {
    pattern: "/repos/:owner/:repo/dependabot/secrets",
    template: "/repos/{owner}/{repo}/dependabot/secrets",
    place: repositoryPlace,
    which: "dependabot",
    kind: "repository",
  },
  {
    pattern: "/repos/:owner/:repo/environments/:environment/secrets",
    template: "/repos/{owner}/{repo}/environments/{environment_name}/secrets",
    place: environmentPlace,
    which: "secrets",
    kind: "environment",
  },
  {
    pattern: "/orgs/:org/actions/secrets",
    template: "/orgs/{org}/actions/secrets",
    place: organizationPlace,
    which: "secrets",
    kind: "organization",
  },
  {
    pattern: "/orgs/:org/dependabot/secrets",
    template: "/orgs/{org}/dependabot/secrets",
    place: organizationPlace,
    which: "dependabot",
    kind: "organization",
  },
];

/** The key pair of a place's Actions or Dependabot secrets (an environment has Actions only). */
function keyOf(ctx: RequestContext, place: Place, which: Area["which"]) {
  const suffix = place.keyPlace.startsWith("environment/") ? "" : `/${which}`;
  return sealingKey(ctx.world, `${place.keyPlace}${suffix}`);
}

function secretShape(area: Area, place: Place, secret: StoredSecret): Record<string, unknown> {
  return {
    name: secret.name,
    created_at: secret.created_at,
    updated_at: secret.updated_at,
    ...(secret.shared
      ? {
          visibility: secret.shared.visibility,
          selected_repositories_url: `${place.url}/${area.which === "dependabot" ? "dependabot" : "actions"}/secrets/${secret.name}/repositories`,
        }
      : {}),
  };
}

function secretOf(ctx: RequestContext, area: Area, place: Place): StoredSecret {
  const found = place.store[area.which].get(pathName(ctx, "name"));
  if (found === undefined) throw notFound();
  return found;
}

/** What a PUT's sealed value opens to, or GitHub's 422. */
function opened(ctx: RequestContext, area: Area, place: Place, body: Record<string, unknown>) {
  const encrypted = body.encrypted_value;
  if (typeof encrypted !== "string" || !BASE64.test(encrypted)) {
    throw ctx.invalid([`${String(encrypted)} does not match ${BASE64}.`], "Secret");
  }
  const key = keyOf(ctx, place, area.which);
  if (body.key_id !== key.key_id) throw improperlyEncrypted();
  const value = openSealed(encrypted, key);
  if (value === undefined) throw improperlyEncrypted();
  if (Buffer.byteLength(value) > MAX_VALUE_BYTES) {
    throw ctx.invalid([`a secret can be at most ${MAX_VALUE_BYTES} bytes`], "Secret");
  }
  return value;
}

function routesOf(area: Area): Route[] {
  const { pattern, template, place } = area;
  return [
    {
      method: "GET",
      pattern,
      handler: (ctx) => {
        const at = place(ctx);
        const all = [...at.store[area.which].values()].sort((a, b) => a.name.localeCompare(b.name));
        const page = paginate(ctx, all);
        return {
          status: 200,
          body: {
            total_count: all.length,
            secrets: page.items.map((item) => secretShape(area, at, item)),
          },
          headers: page.headers,
        };
      },
    },
    {
      method: "GET",
      pattern: `${pattern}/public-key`,
      handler: (ctx) => {
        const key = keyOf(ctx, place(ctx), area.which);
        return ok({ key_id: key.key_id, key: publicKeyText(key) });
      },
    },
    {
      method: "GET",
      pattern: `${pattern}/:name`,
      handler: (ctx) => {
        const at = place(ctx);
        return ok(secretShape(area, at, secretOf(ctx, area, at)));
      },
    },
    {
      method: "PUT",
      pattern: `${pattern}/:name`,
      operation: `PUT ${template}/{secret_name}`,
      handler: (ctx) => {
        const at = place(ctx);
        const name = ctx.params.name ?? "";
        const problem = nameProblem(name);
        if (problem !== undefined) throw ctx.invalid([problem], "Secret");
        const store = at.store[area.which];
        const current = store.get(name.toUpperCase());
        const body = ctx.json();
        if (current === undefined && store.size >= MAX_SECRETS[area.kind]) {
          throw ctx.invalid(
            [`a ${area.kind} can have at most ${MAX_SECRETS[area.kind]} secrets`],
            "Secret",
          );
        }
        // An organization secret's visibility may change without a new value; anything else sends one.
        const value =
          body.encrypted_value === undefined && current !== undefined && at.org
            ? undefined
            : opened(ctx, area, at, body);
        const shared = at.org
          ? {
              visibility: body.visibility as "all" | "private" | "selected",
              selected:
                body.visibility === "selected"
                  ? selectedRepositories(
                      ctx,
                      at.org,
                      (body.selected_repository_ids as unknown[] | undefined) ?? [],
                      "Secret",
                    )
                  : new Set<number>(),
            }
          : undefined;
        const now = isoTime(ctx.now());
        store.set(name.toUpperCase(), {
          name: name.toUpperCase(),
          created_at: current?.created_at ?? now,
          updated_at: now,
          sha256: value === undefined ? (current?.sha256 ?? "") : sha256(value),
          ...(shared ? { shared } : {}),
        });
        return current === undefined ? ok({}, 201) : noContent;
      },
    },
    {
      method: "DELETE",
      pattern: `${pattern}/:name`,
      operation: `DELETE ${template}/{secret_name}`,
      handler: (ctx) => {
        const at = place(ctx);
        at.store[area.which].delete(secretOf(ctx, area, at).name);
        return noContent;
      },
    },
  ];
}

export const secretRoutes: Route[] = [
  ...AREAS.flatMap(routesOf),
  ...AREAS.filter((area) => area.kind === "organization").flatMap((area) =>
    sharedRepositoryRoutes(
      `${area.pattern}/:name`,
      `${area.template}/{secret_name}`,
      (ctx, place) => secretOf(ctx, area, place),
      "Secret",
    ),
  ),
];
