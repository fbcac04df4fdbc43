import type { Change, ChangeError, PlannedRequest } from "../../core/plan.js";
import { planCollection } from "../collection.js";
import type { ReadResult, ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import {
  GitlabNames,
  patchItems,
  type Resolved,
  type ResolvedLive,
  resolveLive,
  resolveWritten,
  shownList,
  type WrittenEntry,
} from "../protected-ref-access.js";
import {
  type CanonicalEnvironment,
  ENVIRONMENT_SHAPE,
  type ReadApprovalRule,
  type ReadEnvironment,
} from "./canonical.js";
import {
  type ApprovalRule,
  type DeployEntry,
  ENVIRONMENT_LEVELS,
  type EnvironmentSettings,
  type ProtectedEnvironments,
} from "./settings.js";

/**
 * Plans the protected environments of a project or a group (docs, "Protected environments API";
 * `path`: `/api/v4/projects/:id/protected_environments` or the group's) against one listing, by
 * name. A new one is one POST; a change is one PUT naming the entries to add and, by id with
 * `_destroy`, those to remove ("Update a protected environment", GitLab 15.4) — never an
 * unprotect and a protect, so the environment is never unprotected between them, and GitLab
 * refuses a PUT that would leave it no deploy access level. A rule whose approvals change is
 * updated by its id. Users and groups are named as the protections name them and resolved once
 * a plan (src/resources/protected-ref-access.ts).
 */

const KIND = "protected_environment";
const WITH_SUBGROUPS = " (with subgroups)";

/** A written entry's or rule's principal, as the shared resolver takes it. */
function principal(entry: DeployEntry | ApprovalRule): WrittenEntry {
  if (typeof entry === "string" || typeof entry === "number") return entry;
  if ("access_level" in entry) return entry.access_level;
  if ("user" in entry) return { user: entry.user };
  return { group: entry.group };
}

function inheritanceOf(entry: DeployEntry | ApprovalRule): number {
  return typeof entry === "object" && "group" in entry ? (entry.group_inheritance_type ?? 0) : 0;
}

/** A group counted with its subgroups is another entry than the group alone. */
function withInheritance<T extends Resolved>(resolved: T, inheritance: number | undefined): T {
  if (inheritance !== 1) return resolved;
  return {
    ...resolved,
    shown: `${resolved.shown}${WITH_SUBGROUPS}`,
    item: { ...resolved.item, group_inheritance_type: 1 },
  };
}

interface Rule extends Resolved {
  approvals: number;
}
interface LiveRule extends Rule {
  id: number;
}

const ruleShown = (rule: Rule) =>
  `${rule.shown}: ${rule.approvals} approval${rule.approvals === 1 ? "" : "s"}`;

interface Desired {
  deploy: Resolved[];
  rules?: Rule[];
  count?: number;
}

interface Live {
  deploy: ResolvedLive[];
  rules: LiveRule[];
  count: number;
}

type Found<T> = { ok: true; value: T } | { ok: false; error: ChangeError };

async function resolveDesired(
  names: GitlabNames,
  name: string,
  desired: EnvironmentSettings,
): Promise<Found<Desired>> {
  const field = ["items", name];
  const deploy = await resolveWritten(
    names,
    ENVIRONMENT_LEVELS,
    desired.deploy_access_levels.map(principal),
    [...field, "deploy_access_levels"],
  );
  if (!deploy.ok) return deploy;
  const value: Desired = {
    deploy: deploy.value.map((entry, index) =>
      withInheritance(entry, inheritanceOf(desired.deploy_access_levels[index]!)),
    ),
  };
  if (desired.approval_rules !== undefined) {
    const rules = await resolveWritten(
      names,
      ENVIRONMENT_LEVELS,
      desired.approval_rules.map(principal),
      [...field, "approval_rules"],
    );
    if (!rules.ok) return rules;
    value.rules = rules.value.map((entry, index) => {
      const written = desired.approval_rules![index]!;
      return {
        ...withInheritance(entry, inheritanceOf(written)),
        approvals: written.required_approvals ?? 1,
      };
    });
  }
  if (desired.required_approval_count !== undefined) value.count = desired.required_approval_count;
  return { ok: true, value };
}

async function resolveLiveEnvironment(
  names: GitlabNames,
  live: ReadEnvironment,
): Promise<Found<Live>> {
  const deploy = await resolveLive(names, ENVIRONMENT_LEVELS, live.deploy_access_levels);
  if (!deploy.ok) return deploy;
  const raw: readonly ReadApprovalRule[] = live.approval_rules ?? [];
  const rules = await resolveLive(names, ENVIRONMENT_LEVELS, raw);
  if (!rules.ok) return rules;
  return {
    ok: true,
    value: {
      deploy: deploy.value.map((entry, index) =>
        withInheritance(entry, live.deploy_access_levels[index]!.group_inheritance_type),
      ),
      rules: rules.value.map((entry, index) => ({
        ...withInheritance(entry, raw[index]!.group_inheritance_type),
        approvals: raw[index]!.required_approvals,
      })),
      count: live.required_approval_count ?? 0,
    },
  };
}

/** What is compared: the parts written, and of the live state the same parts. */
function canonicalOf(value: Desired | Live, managed: Desired): CanonicalEnvironment {
  const canonical: CanonicalEnvironment = { deploy_access_levels: shownList(value.deploy) };
  if (managed.rules !== undefined)
    canonical.approval_rules = (value.rules ?? []).map(ruleShown).sort();
  if (managed.count !== undefined) canonical.required_approval_count = value.count ?? 0;
  return canonical;
}

function wholeCanonical(live: Live): CanonicalEnvironment {
  return {
    deploy_access_levels: shownList(live.deploy),
    approval_rules: live.rules.map(ruleShown).sort(),
    required_approval_count: live.count,
  };
}

/**
 * The approval rules' items of one PUT: a live rule kept by its principal stays (its approvals
 * updated by id where they differ), every other live rule is destroyed by id, each desired rule
 * not live is added. Every item names its principal: GitLab's `approval_rules` items take
 * `at_least_one_of :access_level, :user_id, :group_id` (ee/lib/api/protected_environments.rb).
 */
function ruleItems(live: readonly LiveRule[], desired: readonly Rule[]) {
  const wanted = new Map(desired.map((rule) => [rule.shown, rule]));
  const kept = new Set<string>();
  const items: Array<Record<string, unknown>> = [];
  for (const rule of live) {
    const want = wanted.get(rule.shown);
    if (want !== undefined && !kept.has(rule.shown)) {
      kept.add(rule.shown);
      if (want.approvals !== rule.approvals)
        items.push({ id: rule.id, ...rule.item, required_approvals: want.approvals });
    } else items.push({ id: rule.id, ...rule.item, _destroy: true });
  }
  for (const rule of desired)
    if (!kept.has(rule.shown)) items.push({ ...rule.item, required_approvals: rule.approvals });
  return items;
}

function creation(path: string, name: string, desired: Desired): PlannedRequest {
  const body: Record<string, unknown> = {
    name,
    deploy_access_levels: desired.deploy.map((entry) => entry.item),
  };
  if (desired.rules !== undefined && desired.rules.length > 0)
    body.approval_rules = desired.rules.map((rule) => ({
      ...rule.item,
      required_approvals: rule.approvals,
    }));
  if (desired.count !== undefined) body.required_approval_count = desired.count;
  return { method: "POST", path, body };
}

/** Why a listing was refused, in GitLab's terms: the tier or the role. */
function refused(
  listed: ReadResult<ReadEnvironment[]>,
  scope: string,
  group: boolean,
): ReadResult<ReadEnvironment[]> {
  if (listed.kind !== "error" || (listed.error.status !== 403 && listed.error.status !== 404))
    return listed;
  const role = group ? "the Owner role of the group" : "the Maintainer role of the project";
  return {
    kind: "error",
    error: {
      ...listed.error,
      message: `${listed.error.message}: GitLab answers ${listed.error.status} where protected environments are not available (they need GitLab Premium) or the token lacks ${role} (${scope})`,
    },
  };
}

export function planEnvironments(input: {
  reader: ResourceReader;
  scope: string;
  /** The listing's and the create's path. */
  path: string;
  group: boolean;
  value: ProtectedEnvironments;
  deleted: readonly Change[];
}): Promise<Change[]> {
  const { reader, scope, path, group, value, deleted } = input;
  const names = new GitlabNames(reader);
  const itemPath = (name: string) => `${path}/${encodeURIComponent(name)}`;
  const deletion = async (live: ReadEnvironment, note: string): Promise<Partial<Change>> => {
    const resolved = await resolveLiveEnvironment(names, live);
    if (!resolved.ok) return { error: resolved.error };
    const canonical = wholeCanonical(resolved.value);
    return {
      action: "delete",
      diff: diffValues(canonical, {}),
      requests: [{ method: "DELETE", path: itemPath(live.name) }],
      live_fingerprint: fingerprint(canonical),
      notes: [note],
    };
  };
  return planCollection<EnvironmentSettings | null, ReadEnvironment>({
    reader,
    scope,
    kind: KIND,
    what: `the protected environments of ${scope}`,
    mode: value.mode ?? "additive",
    members: Object.entries(value.items ?? {}).map(([name, desired]) => ({ name, desired })),
    path,
    list: async () => refused(await reader.list(path, undefined, ENVIRONMENT_SHAPE), scope, group),
    nameOf: (environment) => environment.name,
    plan: async ({ name, desired }, live) => {
      if (desired === null) {
        if (live === undefined) return { live_fingerprint: fingerprint(null) };
        return deletion(live, "null in the desired state");
      }
      const wanted = await resolveDesired(names, name, desired);
      if (!wanted.ok) return { error: wanted.error };
      if (live === undefined) {
        return {
          action: "create",
          diff: diffValues({}, canonicalOf(wanted.value, wanted.value)),
          requests: [creation(path, name, wanted.value)],
          live_fingerprint: fingerprint(null),
        };
      }
      const current = await resolveLiveEnvironment(names, live);
      if (!current.ok) return { error: current.error };
      const before = canonicalOf(current.value, wanted.value);
      const diff = diffValues(before, canonicalOf(wanted.value, wanted.value));
      if (diff.length === 0) return { live_fingerprint: fingerprint(before) };
      const body: Record<string, unknown> = {};
      const deploy = patchItems(current.value.deploy, wanted.value.deploy);
      if (deploy.length > 0) body.deploy_access_levels = deploy;
      if (wanted.value.rules !== undefined) {
        const rules = ruleItems(current.value.rules, wanted.value.rules);
        if (rules.length > 0) body.approval_rules = rules;
      }
      // A group's update takes `required_approval_count` with a default of 0 (the group
      // endpoint's params): it is always sent there, so an update never resets it.
      if (wanted.value.count !== undefined || group)
        body.required_approval_count = wanted.value.count ?? current.value.count;
      return {
        action: "update",
        diff,
        requests: [{ method: "PUT", path: itemPath(name), body }],
        live_fingerprint: fingerprint(before),
      };
    },
    remove: async (environment) => ({
      name: environment.name,
      change: await deletion(
        environment,
        "not in the desired state (protected_environments mode: authoritative)",
      ),
    }),
    deleted,
  });
}
