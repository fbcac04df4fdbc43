import { type FieldError, idParam, isoTime, noContent, notFound, ok } from "../http.js";
import type { RequestContext, Route } from "../http.js";
import { paginate } from "../../core/pagination.js";
import { adminRepository, assertUnlocked } from "../world/access.js";
import type { GithubWorld, Repository } from "../world/records.js";
import { type DeployKey, deployKeyIds, deployKeysOf } from "./records.js";
import { storedKey } from "./key-text.js";

/**
 * A repository's deploy keys: list (paginated), read, create and delete — GitHub has no update for
 * one ("Deploy keys are immutable. If you need to update a key, remove the key and create a new one
 * instead", the delete operation's description). Every operation takes admin rights.
 */

export function deployKeyShape(ctx: RequestContext, repo: Repository, value: DeployKey) {
  return {
    id: value.id,
    key: value.key,
    url: `${ctx.base}/repos/${repo.owner.login}/${repo.name}/keys/${value.id}`,
    title: value.title,
    verified: true,
    created_at: value.created_at,
    read_only: value.read_only,
    added_by: ctx.caller?.login ?? null,
    last_used: null,
    enabled: true,
  };
}

/** Where a key is used: a key is one repository's deploy key only, whichever repository. */
function keyInUse(world: GithubWorld, key: string): boolean {
  for (const repo of world.repositoriesById.values()) {
    for (const deployKey of deployKeysOf(repo).values()) if (deployKey.key === key) return true;
  }
  return false;
}

/**
 * GitHub's refusals of a new key (the 422s quoted in integrations/terraform-provider-github#1095
 * and go-github#1337: "key is invalid. You must supply a key in OpenSSH public key format",
 * "key is already in use").
 */
export function deployKeyProblems(world: GithubWorld, text: unknown): FieldError[] {
  const problem = (message: string): FieldError => ({
    resource: "PublicKey",
    code: "custom",
    field: "key",
    message,
  });
  const key = typeof text === "string" ? storedKey(text) : undefined;
  if (key === undefined) {
    return [problem("key is invalid. You must supply a key in OpenSSH public key format")];
  }
  return keyInUse(world, key) ? [problem("key is already in use")] : [];
}

function deployKeyOf(ctx: RequestContext, repo: Repository): DeployKey {
  const id = idParam(ctx.params.id);
  const found = id === undefined ? undefined : deployKeysOf(repo).get(id);
  if (!found) throw notFound();
  return found;
}

export const deployKeyRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/keys",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const page = paginate(ctx, [...deployKeysOf(repo).values()]);
      return {
        status: 200,
        body: page.items.map((item) => deployKeyShape(ctx, repo, item)),
        headers: page.headers,
      };
    },
  },
  {
    method: "GET",
    pattern: "/repos/:owner/:repo/keys/:id",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      return ok(deployKeyShape(ctx, repo, deployKeyOf(ctx, repo)));
    },
  },
  {
    method: "POST",
    pattern: "/repos/:owner/:repo/keys",
    operation: "POST /repos/{owner}/{repo}/keys",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      assertUnlocked(ctx, repo);
      const body = ctx.json() as { title?: string; key?: string; read_only?: boolean };
      const errors = deployKeyProblems(ctx.world, body.key);
      if (errors.length > 0) throw ctx.refused(errors);
      const key = storedKey(body.key!)!;
      const created: DeployKey = {
        id: deployKeyIds(ctx.world).next++,
        key,
        // Without a title GitHub names the key by its comment; the sandbox by the key's type.
        title: body.title ?? key.split(" ")[0]!,
        // Omitted, the key reads and writes ("If true, the key will only be able to read", the spec).
        read_only: body.read_only === true,
        created_at: isoTime(ctx.now()),
      };
      deployKeysOf(repo).set(created.id, created);
      return {
        status: 201,
        body: deployKeyShape(ctx, repo, created),
        headers: {
          Location: `${ctx.base}/repos/${repo.owner.login}/${repo.name}/keys/${created.id}`,
        },
      };
    },
  },
  {
    method: "DELETE",
    pattern: "/repos/:owner/:repo/keys/:id",
    operation: "DELETE /repos/{owner}/{repo}/keys/{key_id}",
    handler: (ctx) => {
      const { repo } = adminRepository(ctx);
      const found = deployKeyOf(ctx, repo);
      assertUnlocked(ctx, repo);
      deployKeysOf(repo).delete(found.id);
      return noContent;
    },
  },
];
