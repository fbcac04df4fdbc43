import * as z from "zod";
import { type Change, type DiffEntry, newChange, type PlannedRequest } from "../../core/plan.js";
import {
  changeError,
  mustFind,
  type ReadResult,
  repoPath,
  type ResourceReader,
} from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import type { KindModule, Location } from "../kind.js";
import { listedNames, listedRepository, nameSet, repositoryIds } from "../repository-ids.js";
import {
  accessRules,
  type ActionsPolicy,
  type OrganizationActions,
  organizationActions,
  type RepositoryActions,
  repositoryActions,
  type SelectedActions,
} from "./settings.js";

/**
 * GitHub Actions permissions of a repository or an organization, each part read and written at its
 * own endpoint, as GitHub has them:
 *
 * - `permissions`: `…/actions/permissions` (a repository's `enabled`, an organization's
 *   `enabled_repositories`, `allowed_actions`, `sha_pinning_required`), then an organization's
 *   `…/permissions/repositories` and `…/permissions/selected-actions` — in one change, in that
 *   order, since the later endpoints take a request only once the first says `selected`;
 * - `workflow`: `…/permissions/workflow` (the GITHUB_TOKEN's default permissions);
 * - `access`: a repository's `…/permissions/access`, only where GitHub says it applies: "This
 *   endpoint only applies to private repositories" (`actions/get-workflow-access-to-repository` and
 *   `…/set-…` in @octokit/openapi's api.github.com description; "internal and private
 *   repositories" in its GitHub Enterprise Cloud one). A public repository's is not read, exported
 *   or written: whatever GitHub answers there is no setting of the repository, and a written
 *   `access_level` plans as unchanged, with a note (docs/service-decisions.md, "Organizations and
 *   GitHub Actions").
 *
 * Only fields written are compared; a PUT sends every field its endpoint has, the live value where
 * none is written, so nothing unwritten changes. Pattern and repository lists compare as sets.
 */

const KIND = "actions";

const permissionsShape = {
  name: "Actions permissions",
  schema: z.looseObject({
    enabled: z.boolean().optional(),
    enabled_repositories: z.enum(["all", "none", "selected"]).optional(),
    allowed_actions: z.enum(["all", "local_only", "selected"]).optional(),
    sha_pinning_required: z.boolean().optional(),
  }),
};
const selectedShape = {
  name: "Selected actions",
  schema: z.looseObject({
    github_owned_allowed: z.boolean().optional(),
    verified_allowed: z.boolean().optional(),
    patterns_allowed: z.array(z.string()).optional(),
  }),
};
const workflowShape = {
  name: "default workflow permissions",
  schema: z.looseObject({
    default_workflow_permissions: z.enum(["read", "write"]),
    can_approve_pull_request_reviews: z.boolean(),
  }),
};
const accessShape = {
  name: "workflow access to the repository",
  schema: z.looseObject({ access_level: z.enum(["none", "user", "organization"]) }),
};
/** What `GET /repos/{owner}/{repo}` says of who can see the repository. */
const visibilityShape = {
  name: "a Full Repository",
  schema: z.looseObject({
    private: z.boolean(),
    visibility: z.enum(["public", "private", "internal"]).optional(),
  }),
};

const ACCESS_PUBLIC_NOTE =
  'access_level applies to private and internal repositories only (GitHub: "This endpoint only applies to private repositories"); this one is public, so it is neither read nor written';

/**
 * Whether the repository is public: from the answer the engine located it with, else read
 * (`GET /repos/{owner}/{repo}`, once per repository and run where shared).
 */
async function isPublic(site: Site, location: Location | undefined): Promise<ReadResult<boolean>> {
  const known =
    location?.kind === "found" ? visibilityShape.schema.safeParse(location.answer) : undefined;
  const answer: ReadResult<z.infer<typeof visibilityShape.schema>> = known?.success
    ? { kind: "found", data: known.data }
    : await site.reader.getOrAbsent(site.base, visibilityShape);
  if (answer.kind !== "found") return answer;
  const visibility = answer.data.visibility ?? (answer.data.private ? "private" : "public");
  return { kind: "found", data: visibility === "public" };
}

/** Where the settings live: a repository or an organization. */
interface Site {
  reader: ResourceReader;
  scope: string;
  /** `/repos/{owner}/{repo}` or `/orgs/{org}`. */
  base: string;
  level: "repository" | "organization";
}

function permissionsPath(site: Site): string {
  return `${site.base}/actions/permissions`;
}

/** A read's data, or the change carrying why it could not be read. */
function readOrError<T>(
  result: ReadResult<T>,
  change: Change,
  site: Site,
  path: string,
): { data: T } | { change: Change } {
  if (result.kind === "found") return { data: result.data };
  const error =
    result.kind === "error"
      ? result.error
      : changeError(
          `${site.level} ${site.scope} was not found (or ${site.reader.credential} cannot see it)`,
          "GET",
          path,
          404,
        );
  return { change: { ...change, error } };
}

function selectedOf(read: z.infer<typeof selectedShape.schema>): Required<SelectedActions> {
  return {
    github_owned_allowed: read.github_owned_allowed ?? false,
    verified_allowed: read.verified_allowed ?? false,
    patterns_allowed: [...new Set(read.patterns_allowed ?? [])].sort(),
  };
}

/** The written fields of `value` among `keys`, sets sorted. */
function written<T extends object>(value: T, keys: readonly (keyof T)[]): Partial<T> {
  const result: Partial<T> = {};
  for (const key of keys) if (value[key] !== undefined) result[key] = value[key];
  return result;
}

function finish(change: Change, live: unknown, diff: DiffEntry[], requests: PlannedRequest[]) {
  const planned = { ...change, live_fingerprint: fingerprint(live) };
  if (diff.length === 0) return planned;
  return { ...planned, action: "update" as const, diff, requests };
}

/** `permissions` of either site: the policy, its selected actions, an organization's repositories. */
async function planPermissions(
  site: Site,
  value: RepositoryActions & OrganizationActions,
): Promise<Change> {
  const change = newChange(site.reader.target, site.scope, KIND, "permissions");
  const path = permissionsPath(site);
  const read = readOrError(
    await site.reader.getOrAbsent(path, permissionsShape),
    change,
    site,
    path,
  );
  if ("change" in read) return read.change;
  const head = site.level === "repository" ? "enabled" : "enabled_repositories";
  const keys = [head, "allowed_actions", "sha_pinning_required"] as const;
  const live: Record<string, unknown> = written(read.data, keys);
  const desired: Record<string, unknown> = written(value, keys);
  const liveShown: Record<string, unknown> = written(live, Object.keys(desired) as never[]);
  let liveSelected: Required<SelectedActions> | undefined;
  if (value.selected_repositories !== undefined) {
    const listed = await listedNames(site.reader, `${path}/repositories`);
    if ("error" in listed) return { ...change, error: listed.error };
    liveShown.selected_repositories = listed.names;
    desired.selected_repositories = nameSet(value.selected_repositories);
  }
  if (value.selected_actions !== undefined) {
    const selectedPath = `${path}/selected-actions`;
    const selected = readOrError(
      await site.reader.getOrAbsent(selectedPath, selectedShape),
      change,
      site,
      selectedPath,
    );
    if ("change" in selected) return selected.change;
    liveSelected = selectedOf(selected.data);
    const wanted = written(value.selected_actions, [
      "github_owned_allowed",
      "verified_allowed",
      "patterns_allowed",
    ]);
    if (wanted.patterns_allowed)
      wanted.patterns_allowed = [...new Set(wanted.patterns_allowed)].sort();
    liveShown.selected_actions = written(liveSelected, Object.keys(wanted) as never[]);
    desired.selected_actions = wanted;
  }
  const diff = diffValues(liveShown, desired);
  const differs = (...fields: string[]) =>
    diff.some((entry) =>
      fields.some((field) => entry.path === field || entry.path.startsWith(`${field}.`)),
    );
  const requests: PlannedRequest[] = [];
  if (differs(...keys)) {
    requests.push({ method: "PUT", path, body: { ...live, ...written(desired, keys as never) } });
  }
  if (differs("selected_repositories")) {
    const ids = await repositoryIds(site.reader, site.scope, value.selected_repositories ?? []);
    if ("error" in ids) return { ...change, error: ids.error };
    requests.push({
      method: "PUT",
      path: `${path}/repositories`,
      body: { selected_repository_ids: ids.ids },
    });
  }
  if (differs("selected_actions") && liveSelected !== undefined) {
    requests.push({
      method: "PUT",
      path: `${path}/selected-actions`,
      body: { ...liveSelected, ...(desired.selected_actions as SelectedActions) },
    });
  }
  return finish(change, liveShown, diff, requests);
}

async function planWorkflow(site: Site, value: ActionsPolicy): Promise<Change> {
  const change = newChange(site.reader.target, site.scope, KIND, "workflow");
  const path = `${permissionsPath(site)}/workflow`;
  const read = readOrError(await site.reader.getOrAbsent(path, workflowShape), change, site, path);
  if ("change" in read) return read.change;
  const keys = ["default_workflow_permissions", "can_approve_pull_request_reviews"] as const;
  const live = written(read.data, keys);
  const desired = written(value, keys);
  const diff = diffValues(written(live, Object.keys(desired) as never[]), desired);
  return finish(change, live, diff, [{ method: "PUT", path, body: { ...live, ...desired } }]);
}

async function planAccess(
  site: Site,
  level: string,
  location: Location | undefined,
): Promise<Change> {
  const change = newChange(site.reader.target, site.scope, KIND, "access");
  const visibility = readOrError(await isPublic(site, location), change, site, site.base);
  if ("change" in visibility) return visibility.change;
  if (visibility.data) return { ...change, notes: [ACCESS_PUBLIC_NOTE] };
  const path = `${permissionsPath(site)}/access`;
  const read = readOrError(await site.reader.getOrAbsent(path, accessShape), change, site, path);
  if ("change" in read) return read.change;
  const live = { access_level: read.data.access_level };
  const diff = diffValues(live, { access_level: level });
  return finish(change, live, diff, [{ method: "PUT", path, body: { access_level: level } }]);
}

const PERMISSION_KEYS = [
  "enabled",
  "enabled_repositories",
  "selected_repositories",
  "allowed_actions",
  "sha_pinning_required",
  "selected_actions",
] as const;

async function plan(
  site: Site,
  value: RepositoryActions & OrganizationActions,
  location?: Location,
): Promise<Change[]> {
  const planned: Array<Promise<Change>> = [];
  if (PERMISSION_KEYS.some((key) => value[key] !== undefined)) {
    planned.push(planPermissions(site, value));
  }
  if (
    value.default_workflow_permissions !== undefined ||
    value.can_approve_pull_request_reviews !== undefined
  ) {
    planned.push(planWorkflow(site, value));
  }
  if (value.access_level !== undefined) {
    planned.push(planAccess(site, value.access_level, location));
  }
  return Promise.all(planned);
}

/** Everything as it is live, written so that it is valid (what applies only when, only then). */
async function exportActions(site: Site): Promise<unknown> {
  const { reader } = site;
  const path = permissionsPath(site);
  const permissions = mustFind(await reader.getOrAbsent(path, permissionsShape), path);
  const exported: Record<string, unknown> = {};
  let runs: boolean;
  if (site.level === "repository") {
    exported.enabled = permissions.enabled ?? true;
    runs = exported.enabled === true;
  } else {
    const enabled = permissions.enabled_repositories ?? "all";
    exported.enabled_repositories = enabled;
    runs = enabled !== "none";
    if (enabled === "selected") {
      const reposPath = `${path}/repositories`;
      const listed = mustFind(
        await reader.list(reposPath, undefined, listedRepository, { itemsUnder: "repositories" }),
        reposPath,
      );
      exported.selected_repositories = listed.map((repo) => repo.name).sort();
    }
  }
  if (runs) {
    if (permissions.allowed_actions !== undefined)
      exported.allowed_actions = permissions.allowed_actions;
    if (permissions.sha_pinning_required !== undefined) {
      exported.sha_pinning_required = permissions.sha_pinning_required;
    }
    if (permissions.allowed_actions === "selected") {
      const selectedPath = `${path}/selected-actions`;
      exported.selected_actions = selectedOf(
        mustFind(await reader.getOrAbsent(selectedPath, selectedShape), selectedPath),
      );
    }
  }
  const workflowPath = `${path}/workflow`;
  Object.assign(
    exported,
    mustFind(await reader.getOrAbsent(workflowPath, workflowShape), workflowPath),
  );
  // Only where GitHub says the setting applies: a public repository has none.
  if (site.level === "repository" && !mustFind(await isPublic(site, undefined), site.base)) {
    const accessPath = `${path}/access`;
    exported.access_level = mustFind(
      await reader.getOrAbsent(accessPath, accessShape),
      accessPath,
    ).access_level;
  }
  return written(exported, [
    "enabled",
    "enabled_repositories",
    "selected_repositories",
    "allowed_actions",
    "sha_pinning_required",
    "selected_actions",
    "default_workflow_permissions",
    "can_approve_pull_request_reviews",
    "access_level",
  ]);
}

const print = () => [{ kind: KIND, name: "*", path: [] }];

export const actionsKind: KindModule = {
  name: KIND,
  repository: {
    setting: {
      key: "actions",
      schema: repositoryActions,
      rules: accessRules,
      defines: () => [{ id: "actions", path: [], what: "the Actions permissions" }],
      print,
    },
    plan: ({ reader, repo, value, location }) =>
      plan(
        { reader, scope: `${repo.owner}/${repo.name}`, base: repoPath(repo), level: "repository" },
        value as RepositoryActions,
        location,
      ),
    export: (reader, repo) =>
      exportActions({
        reader,
        scope: `${repo.owner}/${repo.name}`,
        base: repoPath(repo),
        level: "repository",
      }),
  },
  organization: {
    setting: {
      key: "actions",
      schema: organizationActions,
      defines: () => [{ id: "actions", path: [], what: "the Actions permissions" }],
      print,
    },
    plan: ({ reader, org, value }) =>
      plan(
        { reader, scope: org, base: `/orgs/${encodeURIComponent(org)}`, level: "organization" },
        value as OrganizationActions,
      ),
    export: (reader, org) =>
      exportActions({
        reader,
        scope: org,
        base: `/orgs/${encodeURIComponent(org)}`,
        level: "organization",
      }),
  },
};
