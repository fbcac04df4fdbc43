import { selectedName } from "../../config/glob.js";
import type { Change, PlannedRequest, RetryWhile } from "../../core/plan.js";
import { type MemberChange, planCollection } from "../collection.js";
import type { RepoRef, ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  GitlabNames,
  premiumShown,
  type Resolved,
  resolveLive,
  resolveWritten,
  shownList,
  TAG_LEVELS,
} from "../protected-ref-access.js";
import { projectPath } from "../gitlab-paths.js";
import { TAG_SHAPE, type TagAnswer } from "./canonical.js";
import type { ProtectedTags, TagProtection } from "./settings.js";

/**
 * Plans a project's protected tags against one listing of them, keyed by name. GitLab's
 * protected tags have POST and DELETE only (docs, "Protected tags API"), so a changed one is
 * replaced: one change whose requests unprotect it and protect it again — the tag is unprotected
 * between the two, so it is gated by --allow-protection-gap and says so.
 */

export const KIND = "protected_tags";

/** A user added as a member a moment ago cannot be named yet (see protected-branches/plan.ts). */
const NEW_MEMBER: RetryWhile = {
  status: 422,
  message: "user is not a member of the project",
  withinMs: 30_000,
};

export function protectedTagsPath(project: RepoRef): string {
  return `${projectPath(project)}/protected_tags`;
}

const REPLACED =
  "replaced, unprotected between two requests: GitLab has no update for a protected tag, so it is unprotected (DELETE) and protected again (POST); anyone may create a matching tag in between (applied only with --allow-protection-gap)";

function createRequest(path: string, name: string, list: readonly Resolved[]): PlannedRequest {
  const only = list.length === 1 ? list[0]!.item : undefined;
  const body: Record<string, unknown> = { name };
  if (only?.access_level !== undefined) body.create_access_level = only.access_level;
  else body.allowed_to_create = list.map((entry) => entry.item);
  const namesUser = list.some((entry) => entry.item.user_id !== undefined);
  return { method: "POST", path, body, ...(namesUser ? { retryWhile: NEW_MEMBER } : {}) };
}

/** Plans one project's protected tags. */
export async function planProtectedTags(input: {
  reader: ResourceReader;
  project: RepoRef;
  value: ProtectedTags;
  deleted: readonly Change[];
}): Promise<Change[]> {
  const { reader, project, value, deleted } = input;
  const path = protectedTagsPath(project);
  const names = new GitlabNames(reader);
  let premium: boolean | undefined;
  const tagPath = (name: string) => `${path}/${encodeURIComponent(name)}`;
  const liveOf = async (tag: TagAnswer) => {
    const found = await resolveLive(names, TAG_LEVELS, tag.create_access_levels);
    return found.ok ? { create: shownList(found.value) } : { error: found.error };
  };
  const removal = async (tag: TagAnswer, why: string): Promise<MemberChange> => {
    const live = await liveOf(tag);
    if ("error" in live) return { error: live.error };
    return {
      action: "delete",
      diff: diffValues(live, {}),
      requests: [{ method: "DELETE", path: tagPath(tag.name) }],
      live_fingerprint: fingerprint(live),
      notes: [why],
    };
  };
  const planTag = async (
    name: string,
    desired: TagProtection | null,
    tag: TagAnswer | undefined,
  ): Promise<MemberChange> => {
    if (desired === null) {
      if (tag === undefined) return { live_fingerprint: fingerprint(null) };
      return removal(tag, "null in the desired state");
    }
    const written = await resolveWritten(names, TAG_LEVELS, desired.create ?? ["maintainer"], [
      "tags",
      name,
      "create",
    ]);
    if (!written.ok) return { error: written.error };
    const list = written.value;
    if (premium === false && (list.length > 1 || list[0]?.item.access_level === undefined)) {
      return {
        error: {
          message: `create of ${name} is more than one role: GitLab Free keeps one role, and users, groups and deploy keys on Premium only`,
          field: ["tags", name, "create"],
        },
      };
    }
    const wanted = { create: shownList(list) };
    if (tag === undefined) {
      return {
        action: "create",
        diff: diffValues({}, wanted),
        requests: [createRequest(path, name, list)],
        live_fingerprint: fingerprint(null),
      };
    }
    const live = await liveOf(tag);
    if ("error" in live) return { error: live.error };
    const diff = diffValues(live, wanted);
    if (diff.length === 0) return { live_fingerprint: fingerprint(live) };
    return {
      action: "update",
      diff,
      gate: "protection_gap",
      notes: [REPLACED],
      requests: [{ method: "DELETE", path: tagPath(name) }, createRequest(path, name, list)],
      live_fingerprint: fingerprint(live),
    };
  };
  return planCollection({
    reader,
    scope: selectedName(project.owner, project.name),
    kind: KIND,
    what: "the protected tags",
    mode: value.mode ?? "additive",
    members: Object.entries(value.tags ?? {}).map(([name, desired]) => ({ name, desired })),
    path,
    list: async () => {
      const listed = await reader.list(path, undefined, TAG_SHAPE);
      if (listed.kind === "found")
        premium = premiumShown(listed.data.flatMap((tag) => tag.create_access_levels));
      return listed;
    },
    nameOf: (tag) => tag.name,
    plan: ({ name, desired }, live) => planTag(name, desired, live),
    remove: async (tag) => ({
      name: tag.name,
      change: await removal(tag, "not in the desired state (protected_tags mode: authoritative)"),
    }),
    deleted,
  });
}
