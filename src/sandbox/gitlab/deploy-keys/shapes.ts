import type { GitlabWorld, Project } from "../world/records.js";
import type { DeployKey } from "./records.js";

/** GitLab's DeployKey entity (doc/api/deploy_keys.md): the key's own fields. */
export function deployKey(key: DeployKey): Record<string, unknown> {
  return {
    id: key.id,
    title: key.title,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    key: key.key,
    usage_type: "auth_and_signing",
    fingerprint: key.fingerprint,
    fingerprint_sha256: key.fingerprintSha256,
  };
}

/** DeployKeysProject: a key as one project has it, with that project's `can_push`. */
export function projectKey(key: DeployKey, canPush: boolean): Record<string, unknown> {
  return { ...deployKey(key), can_push: canPush };
}

function projectBrief(world: GitlabWorld, project: Project): Record<string, unknown> {
  const path = world.fullPath(project);
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${project.group.fullName} / ${project.name}`,
    path: project.path,
    path_with_namespace: path,
    created_at: project.created_at,
  };
}

/** The administrators' listing's entry: the projects it is enabled in, by `can_push`. */
export function instanceKey(world: GitlabWorld, key: DeployKey): Record<string, unknown> {
  const projects = [...key.projects];
  return {
    ...deployKey(key),
    projects_with_write_access: projects
      .filter(([, canPush]) => canPush)
      .map(([project]) => projectBrief(world, project)),
    projects_with_readonly_access: projects
      .filter(([, canPush]) => !canPush)
      .map(([project]) => projectBrief(world, project)),
  };
}
