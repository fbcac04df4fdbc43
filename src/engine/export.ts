import { ForgeError } from "../forge/client.js";
import * as branchProtection from "../resources/branch-protection.js";
import type { ResourceReader } from "../resources/context.js";
import { repoPath } from "../resources/context.js";
import * as webhook from "../resources/webhook.js";
import { projectPath } from "../resources/board.js";
import { groupPath } from "../resources/epic-link.js";

/**
 * Builds desired-state YAML data from live state. What it returns validates and plans as no-op
 * against the same live state: every protection field is written out, and hooks are keyed by URL.
 */
export interface ExportRequest {
  repos: string[];
  projects: string[];
  groups: string[];
}

export interface ExportedState {
  document: Record<string, unknown>;
  /** Facts worth a comment in the YAML (existing boards and links a clean-up could name). */
  comments: string[];
}

interface ReadBranch {
  name: string;
  protected?: boolean;
}

class ExportError extends Error {}

async function must<T>(promise: Promise<T>, what: string): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof ForgeError) {
      throw new ExportError(`cannot read ${what}: ${error.message}`);
    }
    throw error;
  }
}

async function exportRepo(reader: ResourceReader, fullName: string) {
  const [owner, name, extra] = fullName.split("/");
  if (!owner || !name || extra !== undefined) {
    throw new ExportError(`--repo expects OWNER/REPO, got '${fullName}'`);
  }
  const repo = { owner, name };
  const base = repoPath(repo);
  const branches = await must(
    reader.client.paginate<ReadBranch>(`${base}/branches`),
    `the branches of ${fullName}`,
  );
  const protections: Record<string, unknown> = {};
  for (const branch of branches.filter((candidate) => candidate.protected)) {
    const read = await must(
      reader.client.get<unknown>(branchProtection.protectionPath(repo, branch.name)),
      `the protection of ${fullName} ${branch.name}`,
    );
    protections[branch.name] = branchProtection.toSettings(branchProtection.fromRead(read));
  }
  const hooks = await must(
    reader.client.paginate<Parameters<typeof webhook.fromRead>[0]>(`${base}/hooks`),
    `the hooks of ${fullName}`,
  );
  const entry: Record<string, unknown> = { name: fullName, target: reader.target };
  if (Object.keys(protections).length > 0) entry.branch_protection = protections;
  if (hooks.length > 0) {
    entry.webhooks = {
      mode: "additive",
      hooks: hooks.map((hook) => webhook.toSettings(webhook.fromRead(hook))),
    };
  }
  return entry;
}

export async function exportState(
  request: ExportRequest,
  repositoryReader: ResourceReader | undefined,
  planningReader: ResourceReader | undefined,
): Promise<ExportedState> {
  const document: Record<string, unknown> = { version: 1 };
  const comments: string[] = [];
  if (request.repos.length > 0) {
    if (!repositoryReader) throw new ExportError("no repository target to export from");
    document.repositories = await Promise.all(
      request.repos.map((name) => exportRepo(repositoryReader, name)),
    );
  }
  // Clean-ups name what must not exist, so live boards and epics are listed as comments to pick from.
  for (const project of request.projects) {
    if (!planningReader) throw new ExportError("no planning target to export from");
    const boards = await must(
      planningReader.client.paginate<{ id: number; name: string }>(
        `${projectPath(project)}/boards`,
      ),
      `the boards of project ${project}`,
    );
    comments.push(
      `project ${project} boards (name any under projects[].boards_absent to delete it): ` +
        (boards.map((board) => `${board.id} "${board.name}"`).join(", ") || "none"),
    );
  }
  for (const group of request.groups) {
    if (!planningReader) throw new ExportError("no planning target to export from");
    const epics = await must(
      planningReader.client.paginate<{ iid: number; title?: string }>(`${groupPath(group)}/epics`),
      `the epics of group ${group}`,
    );
    comments.push(
      `group ${group} epics (name links between them under groups[].epic_links_absent): ` +
        (epics.map((epic) => `&${epic.iid} "${epic.title ?? ""}"`).join(", ") || "none"),
    );
  }
  return { document, comments };
}

export { ExportError };
