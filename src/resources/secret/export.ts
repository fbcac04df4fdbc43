import { sharingOf } from "../actions-collections.js";
import { canonicalName } from "../actions-names.js";
import { mustFind, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import { listSecrets } from "./canonical.js";
import type { WrittenOrganizationSecrets, WrittenRepositorySecrets } from "./settings.js";

/** A placeholder to fill: the variable named like the secret. */
function placeholder(name: string): string {
  return `\${${name}}`;
}

const AREAS = ["actions", "dependabot"] as const;

/** The names of a repository's own secrets, each as a placeholder (environments' are not listed). */
export async function exportRepository(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<WrittenRepositorySecrets | undefined> {
  const exported: WrittenRepositorySecrets = { mode: "additive" };
  for (const area of AREAS) {
    const path = `${repoPath(repo)}/${area}/secrets`;
    const live = mustFind(await listSecrets(reader, path), path);
    if (live.length > 0) {
      exported[area] = Object.fromEntries(
        live.map((item) => canonicalName(item.name)).map((name) => [name, placeholder(name)]),
      );
    }
  }
  return AREAS.some((area) => exported[area] !== undefined) ? exported : undefined;
}

/** An organization's secrets, each as a placeholder with how it is shared. */
export async function exportOrganization(
  reader: ResourceReader,
  org: string,
): Promise<WrittenOrganizationSecrets | undefined> {
  const exported: WrittenOrganizationSecrets = { mode: "additive" };
  for (const area of AREAS) {
    const path = `/orgs/${encodeURIComponent(org)}/${area}/secrets`;
    const live = mustFind(await listSecrets(reader, path), path);
    if (live.length === 0) continue;
    const items: NonNullable<WrittenOrganizationSecrets[typeof area]> = {};
    for (const item of live) {
      const name = canonicalName(item.name);
      items[name] = {
        value: placeholder(name),
        ...(await sharingOf(reader, path, "secret", name, item.visibility)),
      };
    }
    exported[area] = items;
  }
  return AREAS.some((area) => exported[area] !== undefined) ? exported : undefined;
}
