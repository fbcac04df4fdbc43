import { mustFind, readFailure, type RepoRef, type ResourceReader } from "../context.js";
import { referencedIds } from "./canonical.js";
import { rulesetSettings } from "./mapping.js";
import { listLive, organizationWhere, readLive, repositoryWhere, type Where } from "./plan.js";
import type { Rulesets } from "./settings.js";

/** Every ruleset of its own, as configuration that plans as no change. */
async function exportRulesets(where: Where): Promise<Rulesets | undefined> {
  const names = mustFind(await listLive(where), where.base);
  const rulesets: Rulesets = {};
  for (const [name, id] of [...names].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const read = await readLive(where, id);
    if ("error" in read) throw readFailure(read.error);
    await where.dir.learn(referencedIds(read.ruleset), true);
    rulesets[name] = rulesetSettings(where.dir, read.ruleset, where.level);
  }
  return Object.keys(rulesets).length > 0 ? rulesets : undefined;
}

export function exportRepositoryRulesets(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<Rulesets | undefined> {
  return exportRulesets(repositoryWhere(reader, repo));
}

export function exportOrganizationRulesets(
  reader: ResourceReader,
  org: string,
): Promise<Rulesets | undefined> {
  return exportRulesets(organizationWhere(reader, org));
}
