import { mustFind, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { exported } from "../exported.js";
import { listedRepository } from "../repository-ids.js";
import {
  accessShape,
  isPublic,
  permissionsPath,
  permissionsShape,
  selectedOf,
  selectedShape,
  type Site,
  workflowShape,
  written,
} from "./canonical.js";
import { organizationActionsSetting, repositoryActionsSetting } from "./settings.js";

/** Everything as it is live, written so that it is valid (what applies only when, only then). */
async function liveActions(site: Site): Promise<Record<string, unknown>> {
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

export async function exportRepositoryActions(reader: ResourceReader, repo: RepoRef) {
  const site: Site = {
    reader,
    scope: `${repo.owner}/${repo.name}`,
    base: repoPath(repo),
    level: "repository",
  };
  return exported(repositoryActionsSetting.schema, await liveActions(site), permissionsPath(site));
}

export async function exportOrganizationActions(reader: ResourceReader, org: string) {
  const site: Site = {
    reader,
    scope: org,
    base: `/orgs/${encodeURIComponent(org)}`,
    level: "organization",
  };
  return exported(
    organizationActionsSetting.schema,
    await liveActions(site),
    permissionsPath(site),
  );
}
