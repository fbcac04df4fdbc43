import { sharingOf } from "../actions-collections.js";
import { canonicalName } from "../actions-names.js";
import { mustFind, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { listVariables } from "./canonical.js";
import type {
  OrganizationVariable,
  OrganizationVariables,
  RepositoryVariables,
} from "./settings.js";

/** A repository's own variables as they are live (environments' are not listed by export). */
export async function exportRepository(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<RepositoryVariables | undefined> {
  const path = `${repoPath(repo)}/actions/variables`;
  const live = mustFind(await listVariables(reader, path), path);
  if (live.length === 0) return undefined;
  return {
    mode: "additive",
    items: Object.fromEntries(live.map((item) => [canonicalName(item.name), item.value])),
  };
}

/** An organization's variables as they are live, each with how it is shared. */
export async function exportOrganization(
  reader: ResourceReader,
  org: string,
): Promise<OrganizationVariables | undefined> {
  const path = `/orgs/${encodeURIComponent(org)}/actions/variables`;
  const live = mustFind(await listVariables(reader, path), path);
  if (live.length === 0) return undefined;
  const items: Record<string, OrganizationVariable> = {};
  for (const item of live) {
    const name = canonicalName(item.name);
    items[name] = {
      value: item.value,
      ...(await sharingOf(reader, path, "variable", name, item.visibility)),
    };
  }
  return { mode: "additive", items };
}
