import type { Change, DiffEntry, PlannedRequest, Rotation } from "../../core/plan.js";
import type { Secret } from "../../core/secret.js";
import {
  environmentCollections,
  type Members,
  planNamed,
  sharingPlan,
} from "../actions-collections.js";
import type { MemberChange } from "../collection.js";
import { repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { PlanOptions } from "../kind.js";
import { rotates } from "../rotation.js";
import { type Listed, listSecrets } from "./canonical.js";
import type { OrganizationSecret, OrganizationSecrets, RepositorySecrets } from "./settings.js";

/**
 * GitHub never returns a secret's value, so a secret is compared by presence: it is created when
 * missing, deleted under `mode: authoritative` (../collection.ts), and sent again only when asked
 * (`--rotate-secrets`, or `--rotate-secret NAME` by its name or its variable's). The value travels
 * in a plan only as the variable's name: the request carries a sealed placeholder (`{"$sealed":
 * {secret, key}}` and `{"$key_id": key}`), which apply fills at the moment it sends it, sealing the
 * variable's value under the public key it reads then (libsodium's sealed box, GitHub's "Encrypting
 * secrets for the REST API"). An organization secret's visibility and selected repositories are
 * compared and managed like any setting.
 */

const KIND = "secret";

const UNVERIFIED =
  "the value is write-only and could not be verified; send it again with --rotate-secrets or --rotate-secret NAME";

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
): MemberChange {
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

export function planRepository(
  reader: ResourceReader,
  repo: RepoRef,
  value: RepositorySecrets,
  options: PlanOptions,
): Promise<Change[]> {
  const scope = `${repo.owner}/${repo.name}`;
  const mode = value.mode ?? "additive";
  const base = repoPath(repo);
  return planNamed({ reader, scope, kind: KIND, options }, presences(reader, options), [
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
): Promise<MemberChange> {
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

export function planOrganization(
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
    { reader, scope: org, kind: KIND, options },
    members,
    (["actions", "dependabot"] as const).map((area) => ({
      path: `/orgs/${encodeURIComponent(org)}/${area}/secrets`,
      prefix: area === "actions" ? "" : "dependabot/",
      what: `the ${area === "actions" ? "Actions" : "Dependabot"} secrets of ${org}`,
      mode: value.mode ?? "additive",
      items: value[area],
    })),
  );
}
