import * as z from "zod";
import { mustFind, readFailure, repoPath, type RepoRef, type ResourceReader } from "../context.js";
import {
  fullRepository,
  liveFields,
  liveSecurity,
  liveVisibility,
  SECURITY_FEATURES,
  topicSet,
} from "./canonical.js";
import { exported } from "../exported.js";
import { type RepositorySettings, settingsSetting } from "./settings.js";

const enabledAnswer = { name: "{enabled}", schema: z.looseObject({ enabled: z.boolean() }) };
const noContent = { name: "an empty answer (204)", schema: z.undefined() };

/** A homepage the configuration can hold: an http(s) URL, as its schema asks. */
function writable(homepage: unknown): boolean {
  return homepage === null || (typeof homepage === "string" && /^https?:\/\/\S+$/.test(homepage));
}

/**
 * The settings that reproduce a repository's live state: every field GitHub reports, its topics and
 * its three security toggles. What the configuration cannot hold is left out, so it stays unmanaged:
 * visibility internal (GitHub's request schemas lack it) and a homepage that is not an http(s) URL;
 * private vulnerability reporting of a private repository, which has none.
 */
export async function exportSettings(
  reader: ResourceReader,
  repo: RepoRef,
): Promise<RepositorySettings> {
  const path = repoPath(repo);
  const answer = mustFind(await reader.getOrAbsent(path, fullRepository), path);
  const value: Record<string, unknown> = {};
  const visibility = liveVisibility(answer);
  if (visibility === "public" || visibility === "private") value.visibility = visibility;
  for (const [field, live] of Object.entries(liveFields(answer))) {
    if (field !== "homepage" || writable(live)) value[field] = live;
  }
  if (answer.default_branch !== undefined) value.default_branch = answer.default_branch;
  value.archived = answer.archived;
  const security = liveSecurity(answer);
  const features: Record<string, unknown> = {};
  for (const feature of SECURITY_FEATURES) {
    if (security[feature] !== undefined) features[feature] = { status: security[feature] };
  }
  if (security.bypass_reviewers !== undefined) {
    features.secret_scanning_delegated_bypass_options = { reviewers: security.bypass_reviewers };
  }
  if (Object.keys(features).length > 0) value.security_and_analysis = features;
  if (answer.topics !== undefined) value.topics = topicSet(answer.topics);
  const [alerts, fixes, reporting] = await Promise.all([
    reader.getOrAbsent(`${path}/vulnerability-alerts`, noContent),
    reader.getOrAbsent(`${path}/automated-security-fixes`, enabledAnswer),
    reader.getOrAbsent(`${path}/private-vulnerability-reporting`, enabledAnswer),
  ]);
  for (const read of [alerts, fixes, reporting])
    if (read.kind === "error") throw readFailure(read.error);
  value.vulnerability_alerts = alerts.kind === "found";
  value.automated_security_fixes = fixes.kind === "found" && fixes.data.enabled;
  if (reporting.kind === "found") value.private_vulnerability_reporting = reporting.data.enabled;
  return exported(settingsSetting.schema, value, path);
}
