import * as z from "zod";
import type { Change, DiffEntry, PlannedRequest, Rotation } from "../../core/plan.js";
import type { Secret } from "../../core/secret.js";
import { mustFind, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { KindModule, PlanOptions } from "../kind.js";
import {
  definedMembers,
  environmentCollections,
  listByName,
  sharingOf,
  sharingPlan,
} from "../actions-collections.js";
import { canonicalName } from "../actions-names.js";
import { type Members, planNamed } from "../collection.js";
import { rotates } from "../rotation.js";
import {
  ORGANIZATION_SECRET_PATHS,
  type OrganizationSecret,
  type OrganizationSecrets,
  organizationSecrets,
  REPOSITORY_SECRET_PATHS,
  type RepositorySecrets,
  repositorySecrets,
} from "./settings.js";

/**
 * GitHub Actions and Dependabot secrets of repositories, their environments and organizations, by
 * name. GitHub never returns a secret's value, so a secret is compared by presence: it is created
 * when missing, deleted under `mode: authoritative` (marked for the removal caps), and sent again
 * only when asked (`--rotate-secrets`, or `--rotate-secret NAME` by its name or its variable's).
 * The value travels in a plan only as the variable's name: the request carries a sealed placeholder
 * (`{"$sealed": {secret, key}}` and `{"$key_id": key}`), which apply fills at the moment it sends it,
 * sealing the variable's value under the public key it reads then (libsodium's sealed box, GitHub's
 * "Encrypting secrets for the REST API"). An organization secret's visibility and selected
 * repositories are compared and managed like any setting.
 */

const KIND = "secret";

const listedSecret = z.looseObject({
  name: z.string(),
  visibility: z.enum(["all", "private", "selected"]).optional(),
});
type Listed = z.infer<typeof listedSecret>;

const UNVERIFIED =
  "the value is write-only and could not be verified; send it again with --rotate-secrets or --rotate-secret NAME";

function listSecrets(reader: ResourceReader, path: string) {
  return listByName(reader, path, { name: "secrets", schema: listedSecret }, "secrets");
}

/** The body fields that carry a value: sealed under the key of `path`'s collection, at apply. */
function sealed(path: string, secret: Secret) {
  const key = `${path}/public-key`;
  return { encrypted_value: { $sealed: { secret: secret.source, key } }, key_id: { $key_id: key } };
}

const SET: DiffEntry = { path: "value", after: "set", sensitive: true };
const ROTATED: DiffEntry = { path: "value", before: "set", after: "rotated", sensitive: true };

/** A repository's, environment's or Dependabot secret: its presence only. */
function planPresence(
  path: string,
  name: string,
  secret: Secret,
  live: Listed | undefined,
  rotation: Rotation,
): Partial<Change> {
  const put = (): PlannedRequest => ({
    method: "PUT",
    path: `${path}/${name}`,
    body: sealed(path, secret),
  });
  if (live === undefined) {
    return {
      action: "create",
      diff: [SET],
      requests: [put()],
      live_fingerprint: fingerprint(null),
    };
  }
  const planned = { live_fingerprint: fingerprint({ value: "set" }) };
  if (!rotates(rotation, name, secret.source)) return { ...planned, notes: [UNVERIFIED] };
  return { ...planned, action: "update", diff: [ROTATED], requests: [put()] };
}

/** A repository's, environment's or Dependabot secrets: each compared by presence. */
function presences(reader: ResourceReader, rotation: Rotation): Members<Secret, Listed> {
  return {
    list: (path) => listSecrets(reader, path),
    plan: (path, name, secret, live) => planPresence(path, name, secret, live, rotation),
    shown: () => ({ value: "set" }),
  };
}

function planRepository(
  reader: ResourceReader,
  repo: RepoRef,
  value: RepositorySecrets,
  options: PlanOptions,
): Promise<Change[]> {
  const scope = `${repo.owner}/${repo.name}`;
  const mode = value.mode ?? "additive";
  const base = repoPath(repo);
  const members = presences(reader, options);
  return planNamed({ reader, scope, kind: KIND, options, members, canonical: canonicalName }, [
    {
      path: `${base}/actions/secrets`,
      prefix: "",
      what: `the Actions secrets of ${scope}`,
      mode,
      items: value.actions,
    },
    {
      path: `${base}/dependabot/secrets`,
      prefix: "dependabot/",
      what: `the Dependabot secrets of ${scope}`,
      mode,
      items: value.dependabot,
    },
    ...environmentCollections(
      base,
      scope,
      "secrets",
      value.environments,
      mode,
      (env) => env.actions,
    ),
  ]);
}

/** An organization secret as compared: its presence, and how it is shared. */
async function planShared(
  reader: ResourceReader,
  org: string,
  path: string,
  name: string,
  desired: OrganizationSecret,
  live: Listed | undefined,
  rotation: Rotation,
): Promise<Partial<Change>> {
  const compared = await sharingPlan(reader, org, `${path}/${name}`, desired, live);
  if ("error" in compared) return { error: compared.error };
  const { ids } = compared;
  const wanted = { value: "set", ...compared.wanted };
  const sharing = async () => {
    const resolved = await ids();
    if ("error" in resolved) return resolved;
    return {
      body: {
        visibility: desired.visibility,
        ...(desired.visibility === "selected" ? { selected_repository_ids: resolved.ids } : {}),
      },
    };
  };
  if (compared.current === undefined) {
    const shared = await sharing();
    if ("error" in shared) return { error: shared.error };
    return {
      action: "create",
      diff: diffValues({}, wanted).map((entry) => (entry.path === "value" ? SET : entry)),
      requests: [
        {
          method: "PUT",
          path: `${path}/${name}`,
          body: { ...sealed(path, desired.value), ...shared.body },
        },
      ],
      live_fingerprint: fingerprint(null),
    };
  }
  const current = { value: "set", ...compared.current };
  const rotate = rotates(rotation, name, desired.value.source);
  const diff = [...diffValues(current, wanted), ...(rotate ? [ROTATED] : [])];
  const planned = {
    live_fingerprint: fingerprint(current),
    ...(rotate ? {} : { notes: [UNVERIFIED] }),
  };
  if (diff.length === 0) return planned;
  const changed = (key: string) => diff.some((entry) => entry.path === key);
  const requests: PlannedRequest[] = [];
  if (rotate || changed("visibility")) {
    // GitHub's schema makes the value optional here: a secret's sharing changes without it.
    const shared = await sharing();
    if ("error" in shared) return { error: shared.error };
    requests.push({
      method: "PUT",
      path: `${path}/${name}`,
      body: { ...(rotate ? sealed(path, desired.value) : {}), ...shared.body },
    });
  } else if (changed("selected_repositories")) {
    const resolved = await ids();
    if ("error" in resolved) return { error: resolved.error };
    requests.push({
      method: "PUT",
      path: `${path}/${name}/repositories`,
      body: { selected_repository_ids: resolved.ids },
    });
  }
  return { ...planned, action: "update", diff, requests };
}

function planOrganization(
  reader: ResourceReader,
  org: string,
  value: OrganizationSecrets,
  options: PlanOptions,
): Promise<Change[]> {
  const members: Members<OrganizationSecret, Listed> = {
    list: (path) => listSecrets(reader, path),
    plan: (path, name, desired, live) =>
      planShared(reader, org, path, name, desired, live, options),
    shown: (live) => ({ value: "set", visibility: live.visibility }),
  };
  return planNamed(
    { reader, scope: org, kind: KIND, options, members, canonical: canonicalName },
    (["actions", "dependabot"] as const).map((area) => ({
      path: `/orgs/${encodeURIComponent(org)}/${area}/secrets`,
      prefix: area === "actions" ? "" : "dependabot/",
      what: `the ${area === "actions" ? "Actions" : "Dependabot"} secrets of ${org}`,
      mode: value.mode ?? "additive",
      items: value[area],
    })),
  );
}

/** A placeholder to fill: the variable named like the secret. */
function placeholder(name: string): string {
  return `\${${name}}`;
}

/** The names of a repository's own secrets, each as a placeholder (environments' are not listed). */
async function exportRepository(reader: ResourceReader, repo: RepoRef): Promise<unknown> {
  const exported: Record<string, unknown> = {};
  for (const area of ["actions", "dependabot"] as const) {
    const path = `${repoPath(repo)}/${area}/secrets`;
    const live = mustFind(await listSecrets(reader, path), path);
    if (live.size > 0) {
      exported[area] = Object.fromEntries(
        [...live.keys()].map((name) => [name, placeholder(name)]),
      );
    }
  }
  return Object.keys(exported).length > 0 ? { mode: "additive", ...exported } : undefined;
}

async function exportOrganization(reader: ResourceReader, org: string): Promise<unknown> {
  const exported: Record<string, unknown> = {};
  for (const area of ["actions", "dependabot"] as const) {
    const path = `/orgs/${encodeURIComponent(org)}/${area}/secrets`;
    const live = mustFind(await listSecrets(reader, path), path);
    if (live.size === 0) continue;
    const items: Record<string, unknown> = {};
    for (const [name, item] of live) {
      items[name] = {
        value: placeholder(name),
        ...(await sharingOf(reader, path, KIND, name, item.visibility)),
      };
    }
    exported[area] = items;
  }
  return Object.keys(exported).length > 0 ? { mode: "additive", ...exported } : undefined;
}

function defines(value: unknown) {
  const written = value as RepositorySecrets | OrganizationSecrets;
  return definedMembers(
    KIND,
    written,
    [
      { key: "actions", prefix: "", items: written.actions },
      { key: "dependabot", prefix: "dependabot/", items: written.dependabot },
    ],
    (env) => ({ key: "actions", items: env.actions }),
  );
}

const print = () => [{ kind: KIND, name: "*", path: [] }];

export const secretKind: KindModule = {
  name: KIND,
  repository: {
    setting: {
      key: "secrets",
      schema: repositorySecrets,
      defines,
      print,
      secrets: REPOSITORY_SECRET_PATHS,
    },
    plan: ({ reader, repo, value, options }) =>
      planRepository(reader, repo, value as RepositorySecrets, options),
    export: exportRepository,
  },
  organization: {
    setting: {
      key: "secrets",
      schema: organizationSecrets,
      defines,
      print,
      secrets: ORGANIZATION_SECRET_PATHS,
    },
    plan: ({ reader, org, value, options }) =>
      planOrganization(reader, org, value as OrganizationSecrets, options),
    export: exportOrganization,
  },
};
