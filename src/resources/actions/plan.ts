import { type Change, type DiffEntry, newChange, type PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { listedNames, nameSet, repositoryIds } from "../repository-ids.js";
import type { Location } from "../kind.js";
import {
  accessShape,
  isPublic,
  permissionsPath,
  permissionsShape,
  readOrError,
  selectedOf,
  selectedShape,
  type Site,
  workflowShape,
  written,
} from "./canonical.js";
import type {
  ActionsPolicy,
  OrganizationActions,
  RepositoryActions,
  SelectedActions,
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

const ACCESS_PUBLIC_NOTE =
  'access_level applies to private and internal repositories only (GitHub: "This endpoint only applies to private repositories"); this one is public, so it is neither read nor written';

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

export async function planActions(
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
