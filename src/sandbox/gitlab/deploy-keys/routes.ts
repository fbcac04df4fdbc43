import { grapeBoolean } from "../grape-values.js";
import {
  gitlabError,
  gitlabForbidden,
  gitlabNotFound,
  gitlabPageReply,
  HttpError,
  ok,
  parameters,
  type RequestContext,
  requireCaller,
  type Route,
} from "../http.js";
import { visibleProject } from "../world/access.js";
import type { Project } from "../world/records.js";
import { type DeployKey, deployKeysOf, fingerprintsOf, keysOf, link, unlink } from "./records.js";
import { deployKey, instanceKey, projectKey } from "./shapes.js";

/**
 * GitLab's deploy keys API (doc/api/deploy_keys.md, lib/api/deploy_keys.rb as the sandbox reads
 * it): a project's endpoints take the Maintainer role (`authorize_admin_project`); the instance's
 * listing is an administrator's (403 for anyone else). Adding a key the project has already
 * answers that key; adding one the caller can reach elsewhere (enabled in a project the caller
 * maintains, or a public key) joins it to the project ("If the deploy key already exists in
 * another project, it's joined to the current project only if the original one is accessible by
 * the same user") keeping its title and expiry; otherwise a new key is made, refused while its
 * fingerprint is taken. Enabling takes a key the caller can reach, with `can_push` false. An
 * edit of the title of a public key is an administrator's. Removing a key from a project deletes
 * it when no other project has it ("If the deploy key is used only for this project, it's
 * deleted from the system"); a public key stays on the instance.
 */

const NOT_FOUND = () => gitlabNotFound("Deploy Key Not Found");

function maintainedProject(ctx: RequestContext): Project {
  const project = visibleProject(ctx);
  if (!ctx.world.hasRole(project, ctx.caller, "maintainer")) throw gitlabForbidden();
  return project;
}

function enabledKey(ctx: RequestContext, project: Project): DeployKey {
  const id = Number(ctx.params.key_id);
  const found = keysOf(project).find((key) => key.id === id);
  if (found === undefined) throw NOT_FOUND();
  return found;
}

/** GitLab's User#accessible_deploy_keys: keys of projects the caller maintains, and public keys. */
function accessible(ctx: RequestContext, key: DeployKey): boolean {
  return (
    key.public ||
    [...key.projects.keys()].some((project) => ctx.world.hasRole(project, ctx.caller, "maintainer"))
  );
}

function invalid(errors: Record<string, string[]>): HttpError {
  return new HttpError({ status: 400, body: { message: errors } });
}

/** Grape's DateTime of `expires_at`, as the time GitLab stores (ISO 8601 with milliseconds). */
function expiryOf(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  const time = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw gitlabError(400, "expires_at is invalid");
  return new Date(time).toISOString();
}

function add(ctx: RequestContext): Record<string, unknown> {
  const project = maintainedProject(ctx);
  const params = parameters(ctx);
  const text = String(params.key ?? "").trim();
  const canPush = grapeBoolean(params.can_push) === true;
  const linked = keysOf(project).find((key) => key.key === text);
  if (linked !== undefined) return projectKey(linked, linked.projects.get(project) ?? false);
  const store = deployKeysOf(ctx.world);
  const reachable = store.keys.find((key) => key.key === text && accessible(ctx, key));
  if (reachable !== undefined) {
    link(project, reachable, canPush);
    return projectKey(reachable, canPush);
  }
  const prints = fingerprintsOf(text);
  const title = String(params.title ?? "");
  const errors: Record<string, string[]> = {};
  if (title === "") errors["deploy_key.title"] = ["can't be blank"];
  if (prints === undefined) errors["deploy_key.key"] = ["is invalid"];
  else if (store.keys.some((key) => key.fingerprintSha256 === prints.sha256))
    errors["deploy_key.fingerprint_sha256"] = ["has already been taken"];
  const expiresAt = expiryOf(params.expires_at);
  if (Object.keys(errors).length > 0 || prints === undefined) throw invalid(errors);
  const created: DeployKey = {
    id: store.next++,
    title,
    key: text,
    fingerprint: prints.md5,
    fingerprintSha256: prints.sha256,
    createdAt: new Date(ctx.world.now()).toISOString(),
    expiresAt,
    public: false,
    user: requireCaller(ctx),
    projects: new Map(),
  };
  store.keys.push(created);
  link(project, created, canPush);
  return projectKey(created, canPush);
}

const BASE = "/api/v4/projects/:id/deploy_keys";
const TEMPLATE = "/api/v4/projects/{id}/deploy_keys";

export const deployKeyRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/v4/deploy_keys",
    operation: "GET /api/v4/deploy_keys",
    handler: (ctx) => {
      const caller = requireCaller(ctx);
      if (!caller.admin) throw gitlabForbidden();
      const onlyPublic = grapeBoolean(ctx.url.searchParams.get("public")) === true;
      const keys = deployKeysOf(ctx.world).keys.filter((key) => !onlyPublic || key.public);
      return gitlabPageReply(ctx, keys, (key) => instanceKey(ctx.world, key));
    },
  },
  {
    method: "GET",
    pattern: BASE,
    operation: `GET ${TEMPLATE}`,
    handler: (ctx) => {
      const project = maintainedProject(ctx);
      return gitlabPageReply(ctx, keysOf(project), (key) =>
        projectKey(key, key.projects.get(project) ?? false),
      );
    },
  },
  {
    method: "GET",
    pattern: `${BASE}/:key_id`,
    operation: `GET ${TEMPLATE}/{key_id}`,
    handler: (ctx) => {
      const project = maintainedProject(ctx);
      const key = enabledKey(ctx, project);
      return ok(projectKey(key, key.projects.get(project) ?? false));
    },
  },
  {
    method: "POST",
    pattern: BASE,
    operation: `POST ${TEMPLATE}`,
    handler: (ctx) => ok(add(ctx), 201),
  },
  {
    method: "PUT",
    pattern: `${BASE}/:key_id`,
    operation: `PUT ${TEMPLATE}/{key_id}`,
    handler: (ctx) => {
      const project = maintainedProject(ctx);
      const key = enabledKey(ctx, project);
      if (key.public && !requireCaller(ctx).admin) throw gitlabForbidden();
      const params = parameters(ctx);
      if (typeof params.title === "string") {
        if (params.title === "") throw invalid({ "deploy_key.title": ["can't be blank"] });
        key.title = params.title;
      }
      const canPush = grapeBoolean(params.can_push);
      if (typeof canPush === "boolean") key.projects.set(project, canPush);
      return ok(projectKey(key, key.projects.get(project) ?? false));
    },
  },
  {
    method: "DELETE",
    pattern: `${BASE}/:key_id`,
    operation: `DELETE ${TEMPLATE}/{key_id}`,
    handler: (ctx) => {
      const project = maintainedProject(ctx);
      const key = enabledKey(ctx, project);
      unlink(project, key);
      if (key.projects.size === 0 && !key.public) {
        const store = deployKeysOf(ctx.world);
        store.keys.splice(store.keys.indexOf(key), 1);
      }
      return { status: 204, body: undefined };
    },
  },
  {
    method: "POST",
    pattern: `${BASE}/:key_id/enable`,
    operation: `POST ${TEMPLATE}/{key_id}/enable`,
    handler: (ctx) => {
      const project = maintainedProject(ctx);
      const id = Number(ctx.params.key_id);
      const key = deployKeysOf(ctx.world).keys.find((candidate) => candidate.id === id);
      if (key === undefined || !accessible(ctx, key)) throw NOT_FOUND();
      if (!key.projects.has(project)) link(project, key, false);
      return ok(deployKey(key), 201);
    },
  },
];
