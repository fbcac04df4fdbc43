import * as z from "zod";
import type { Change, DiffEntry, PlannedRequest, Rotation } from "../../core/plan.js";
import type { Secret } from "../../core/secret.js";
import { canonicalName } from "../actions-names.js";
import { type Collection, planCollection } from "../collection.js";
import {
  changeError,
  mustFind,
  type ReadResult,
  readFailure,
  repoPath,
  type RepoRef,
  type ResourceReader,
} from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { KindModule, PlanOptions } from "../kind.js";
import { listedNames, nameSet, repositoryIds } from "../repository-ids.js";
import { rotates } from "../rotation.js";
import {
  type Mode,
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

async function listSecrets(
  reader: ResourceReader,
  path: string,
): Promise<ReadResult<ReadonlyMap<string, Listed>>> {
  const listed = await reader.list(
    path,
    undefined,
    { name: "secrets", schema: listedSecret },
    { itemsUnder: "secrets" },
  );
  if (listed.kind !== "found") return listed;
  return {
    kind: "found",
    data: new Map(listed.data.map((item) => [canonicalName(item.name), item])),
  };
}

function canonicalItems<T>(items: Record<string, T> | undefined): Map<string, T> {
  return new Map(Object.entries(items ?? {}).map(([name, value]) => [canonicalName(name), value]));
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

interface Place {
  reader: ResourceReader;
  scope: string;
  options: PlanOptions;
}

function presenceCollection(
  place: Place,
  path: string,
  prefix: string,
  what: string,
  mode: Mode,
  items: Record<string, Secret> | undefined,
  absentNote?: string,
): Collection<Secret, Listed> {
  return {
    target: place.reader.target,
    scope: place.scope,
    kind: KIND,
    prefix,
    what,
    mode,
    desired: canonicalItems(items),
    list: () => listSecrets(place.reader, path),
    ...(absentNote ? { absentNote } : {}),
    plan: (name, secret, live) => planPresence(path, name, secret, live, place.options),
    deleteRequest: (name) => ({ method: "DELETE", path: `${path}/${name}` }),
    shown: () => ({ value: "set" }),
    deleted: place.options.deleted?.at(place.reader.target, place.scope, KIND) ?? [],
  };
}

async function planRepository(
  reader: ResourceReader,
  repo: RepoRef,
  value: RepositorySecrets,
  options: PlanOptions,
): Promise<Change[]> {
  const place = { reader, scope: `${repo.owner}/${repo.name}`, options };
  const mode = value.mode ?? "additive";
  const base = repoPath(repo);
  const collections: Array<Collection<Secret, Listed>> = [];
  const add = (
    path: string,
    prefix: string,
    what: string,
    collectionMode: Mode,
    items: Record<string, Secret>,
    absentNote?: string,
  ) =>
    collections.push(
      presenceCollection(place, path, prefix, what, collectionMode, items, absentNote),
    );
  // A collection not written is not managed: `actions: {}` under authoritative deletes them all.
  if (value.actions !== undefined) {
    add(
      `${base}/actions/secrets`,
      "",
      `the Actions secrets of ${place.scope}`,
      mode,
      value.actions,
    );
  }
  if (value.dependabot !== undefined) {
    add(
      `${base}/dependabot/secrets`,
      "dependabot/",
      `the Dependabot secrets of ${place.scope}`,
      mode,
      value.dependabot,
    );
  }
  for (const [environment, written] of Object.entries(value.environments ?? {})) {
    if (written.actions === undefined) continue;
    add(
      `${base}/environments/${encodeURIComponent(environment)}/secrets`,
      `environments/${environment}/`,
      `the secrets of environment ${environment} of ${place.scope}`,
      written.mode ?? mode,
      written.actions,
      `environment ${environment} was not found: it must exist when this is applied (the environments setting creates it first)`,
    );
  }
  return (await Promise.all(collections.map(planCollection))).flat();
}

/** An organization secret as compared: presence, visibility and, when selected, the repositories. */
interface Shared {
  value: "set";
  visibility: string;
  selected_repositories?: string[];
}

async function planShared(
  reader: ResourceReader,
  org: string,
  path: string,
  name: string,
  desired: OrganizationSecret,
  live: Listed | undefined,
  rotation: Rotation,
): Promise<Partial<Change>> {
  const wanted: Shared = { value: "set", visibility: desired.visibility };
  const selected = desired.visibility === "selected" ? desired.selected_repositories : undefined;
  if (selected !== undefined) wanted.selected_repositories = nameSet(selected);
  const ids = async () =>
    selected === undefined ? { ids: [] } : repositoryIds(reader, org, selected);
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
  if (live === undefined) {
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
  const current: Shared = { value: "set", visibility: live.visibility ?? "" };
  if (live.visibility === "selected" && selected !== undefined) {
    const listed = await listedNames(reader, `${path}/${name}/repositories`);
    if ("error" in listed) return { error: listed.error };
    current.selected_repositories = listed.names;
  }
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

async function planOrganization(
  reader: ResourceReader,
  org: string,
  value: OrganizationSecrets,
  options: PlanOptions,
): Promise<Change[]> {
  const planned = await Promise.all(
    (["actions", "dependabot"] as const).flatMap((area) => {
      const items = value[area];
      if (items === undefined) return [];
      const path = `/orgs/${encodeURIComponent(org)}/${area}/secrets`;
      return [
        planCollection<OrganizationSecret, Listed>({
          target: reader.target,
          scope: org,
          kind: KIND,
          prefix: area === "actions" ? "" : "dependabot/",
          what: `the ${area === "actions" ? "Actions" : "Dependabot"} secrets of ${org}`,
          mode: value.mode ?? "additive",
          desired: canonicalItems(items),
          list: () => listSecrets(reader, path),
          plan: (name, desired, live) =>
            planShared(reader, org, path, name, desired, live, options),
          deleteRequest: (name) => ({ method: "DELETE", path: `${path}/${name}` }),
          shown: (live) => ({ value: "set", visibility: live.visibility }),
          deleted: options.deleted?.at(reader.target, org, KIND) ?? [],
        }),
      ];
    }),
  );
  return planned.flat();
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
      if (item.visibility === undefined) {
        throw readFailure(changeError(`secret ${name} has no visibility`, "GET", path, 200));
      }
      const written: Record<string, unknown> = {
        value: placeholder(name),
        visibility: item.visibility,
      };
      if (item.visibility === "selected") {
        const listed = await listedNames(reader, `${path}/${name}/repositories`);
        if ("error" in listed) throw readFailure(listed.error);
        written.selected_repositories = listed.names;
      }
      items[name] = written;
    }
    exported[area] = items;
  }
  return Object.keys(exported).length > 0 ? { mode: "additive", ...exported } : undefined;
}

/**
 * What a value defines: each secret, by area and canonical name; a collection under `mode:
 * authoritative` is one resource, since what it deletes depends on all it lists.
 */
function definesOf(value: RepositorySecrets | OrganizationSecrets) {
  if (value.mode === "authoritative") {
    return [{ id: "secrets", path: [], what: "the secrets (mode: authoritative)" }];
  }
  const names = (items: Record<string, unknown> | undefined, at: string[], prefix: string) =>
    Object.keys(items ?? {}).map((name) => ({
      id: `${prefix}${canonicalName(name)}`,
      path: [...at, name],
      what: `the secret ${prefix}${canonicalName(name)}`,
    }));
  return [
    ...names(value.actions, ["actions"], ""),
    ...names(value.dependabot, ["dependabot"], "dependabot/"),
    ...Object.entries(("environments" in value && value.environments) || {}).flatMap(
      ([environment, env]) =>
        env.mode === "authoritative"
          ? [
              {
                id: `environments/${environment}`,
                path: ["environments", environment],
                what: `the secrets of environment ${environment} (mode: authoritative)`,
              },
            ]
          : names(
              env.actions,
              ["environments", environment, "actions"],
              `environments/${environment}/`,
            ),
    ),
  ];
}

const print = () => [{ kind: KIND, name: "*", path: [] }];

export const secretKind: KindModule = {
  name: KIND,
  repository: {
    setting: {
      key: "secrets",
      schema: repositorySecrets,
      defines: (value) => definesOf(value as RepositorySecrets),
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
      defines: (value) => definesOf(value as OrganizationSecrets),
      print,
      secrets: ORGANIZATION_SECRET_PATHS,
    },
    plan: ({ reader, org, value, options }) =>
      planOrganization(reader, org, value as OrganizationSecrets, options),
    export: exportOrganization,
  },
};
