import type { ReadBudget } from "./budget.js";
/**
 * The plan vocabulary shared by the engine, the renderers and the CLI. Plans are plain data: they
 * serialize to the contract's JSON format and can be applied later exactly as reviewed. The kinds of
 * resource are the registry's (src/resources/index.ts); here a kind is its name.
 */

export const ACTIONS = ["create", "update", "delete", "no-op", "report"] as const;
export type Action = (typeof ACTIONS)[number];

/** One field that differs. `before`/`after` absent means the field is absent on that side. */
export interface DiffEntry {
  path: string;
  before?: unknown;
  after?: unknown;
  /** The value is write-only or secret: renderers print "(sensitive)" for both sides. */
  sensitive?: boolean;
  /**
   * In a plan of what changed since a revision (`plan --changed-from`): the service already differs
   * here from what the configuration asked for at that revision; the change does not make it so.
   */
  preexisting?: true;
}

/**
 * A placeholder for a secret inside a planned request body. Plans never hold secret values: apply
 * resolves the placeholder from the named environment variable at the moment it sends the request.
 */
export interface SecretRef {
  $secret: string;
}

/**
 * A placeholder for a secret that travels encrypted (GitHub's Actions and Dependabot secrets): apply
 * reads the public key that `GET key` answers when it sends the request, and puts there the secret of
 * the environment variable `secret` sealed under it (libsodium's sealed box, base64). Plans hold only
 * the variable's name and the key's path.
 */
export interface SealedRef {
  $sealed: { secret: string; key: string };
}

/** Stands for the `key_id` of the public key `GET $key_id` answers, read when apply sends the request. */
export interface KeyIdRef {
  $key_id: string;
}

export interface PlannedRequest {
  method: "GET" | "PUT" | "PATCH" | "POST" | "DELETE";
  /**
   * Path relative to the target's base URL, e.g. /repos/acme/api/branches/main/protection. A later
   * request of a change may name what its first request creates with `{created.id}`.
   */
  path: string;
  body?: unknown;
  /**
   * For a GET among a change's requests: what its answer must show before the change goes on (the
   * rules that apply to a branch before its classic protection is deleted). Never sent; the kind's
   * `verify` checks the answer against it, and a miss stops the change there.
   */
  expect?: unknown;
  /**
   * An answer that means "not yet" rather than "no": apply sends the request again, with backoff,
   * while the service answers `status` with a message containing `message`, until `withinMs` have
   * passed since the first answer — then the answer stands as the failure. GitLab refuses a
   * protection naming a member for a short while after the member was added (#40, item 4).
   */
  retryWhile?: RetryWhile;
  /**
   * The request may be sent together with those of other changes (other repositories) that have
   * the same method, path and body but for the list at `list`: apply sends one request whose list
   * holds theirs, up to `max` members (GitHub's `PATCH /orgs/{org}/properties/values` takes up to
   * 30 repository names). Only for a change whose one request this is (src/engine/batched-writes.ts).
   */
  batch?: RequestBatch;
}

export interface RequestBatch {
  /** The top-level member of the body that is a list the requests' lists are joined into. */
  list: string;
  /** The most members one request may hold. */
  max: number;
}

export interface RetryWhile {
  status: number;
  message: string;
  withinMs: number;
}

/**
 * Stands for the id of what the change's first request created, known only after it is sent (a hook
 * is created by a POST whose schema is closed, then given the spec's further fields by a PATCH).
 */
export const CREATED_ID = "{created.id}";

/** The path with `{created.id}` replaced by the `id` of the first request's answer. */
export function resolveCreatedId(path: string, firstAnswer: unknown): string {
  if (!path.includes(CREATED_ID)) return path;
  const id = (firstAnswer as { id?: unknown } | null | undefined)?.id;
  if (typeof id !== "number" && typeof id !== "string") {
    throw new Error(`the answer to the change's first request carries no id for ${path}`);
  }
  return path.replaceAll(CREATED_ID, encodeURIComponent(String(id)));
}

/**
 * Where a change goes among the changes of its repository, whatever their kinds, when apply orders
 * them (src/engine/repository-order.ts): `create` and `unarchive` before every other change,
 * `rename` after them, `archive` last.
 */
export const STEPS = ["create", "unarchive", "rename", "archive"] as const;
export type Step = (typeof STEPS)[number];

/**
 * Changes apply carries out only when told so by a flag of their own, as deletes need
 * --allow-delete: a change of visibility, the creation of a repository, a GitLab protection
 * changed by unprotecting and protecting again (src/engine/gates.ts).
 */
export const GATES = ["visibility", "create", "protection_gap"] as const;
export type Gate = (typeof GATES)[number];

export interface Removal {
  collection: string;
  live: number;
  /**
   * How many members of the collection the one change removes (default 1): a custom property
   * deleted removes the value of every repository that holds one.
   */
  count?: number;
  /** What the members are, for the held sentence ("repository values"); default: none said. */
  members?: string;
}

/**
 * Why the engine holds a delete: the removal limit (src/engine/removal-caps.ts). Either its
 * collection would lose more than the limit allows (`live` members, `count` removals), or the whole
 * plan would delete more than it allows (`count` deletes).
 */
export interface RemovalCap {
  by: "collection" | "plan";
  count: number;
  /** The collection's live members (collection caps). */
  live?: number;
  /** How many the limit allows. */
  allowed: number;
  /** What the collection's members are (`Removal.members`). */
  members?: string;
}

/** What one plan may remove (docs/configuration.md, "Removal limits"). */
export interface RemovalLimit {
  /** The percentage of a collection's live members one plan may remove. */
  share: number;
  /** Removals always allowed in one collection, whatever its size. */
  floor: number;
  /** The most deletes one plan may apply in all; absent: no limit. */
  deletes?: number;
}

export interface ChangeError {
  message: string;
  /** "GET /repos/acme/api" — the request that failed, or that showed the problem. */
  request?: string;
  status?: number;
  /**
   * Set by a kind when the problem is a value the configuration wrote (a login that is no user, a
   * role the organization lacks): its path within the kind's value. The engine, which knows where
   * each value was written, turns it into `written`.
   */
  field?: ReadonlyArray<string | number>;
  /** Where the value the problem is about was written: `forgeplan.yaml:12:9: access.users.ghost`. */
  written?: string;
}

/**
 * A resource a change cannot do without that this plan must create, when it does not exist live
 * (a team granted access that an `organizations` entry creates): the engine makes the change an
 * error `otherwise` says when the plan creates no change at `address`.
 */
export interface Need {
  address: string;
  otherwise: ChangeError;
}

export interface Change {
  /** Stable, human-readable: <target>/<scope>/<kind>/<name>, built only by `addressOf`. */
  address: string;
  /** A kind of the registry, e.g. "branch_protection". */
  kind: string;
  action: Action;
  target: string;
  /** owner/repo for repository kinds, the project or group for planning kinds, the account for gists. */
  scope: string;
  name: string;
  diff: DiffEntry[];
  /** What apply will send, in order; empty for no-op and report. */
  requests: PlannedRequest[];
  /** Facts behind a report, one sentence each. */
  findings?: string[];
  /** Things the reviewer should know, e.g. a write-only value that could not be verified. */
  notes?: string[];
  /** Fingerprint of the normalized live state this change was planned against (saved-plan check). */
  live_fingerprint?: string;
  /** Why apply must not touch this resource now, e.g. a running migration locks the repository. */
  held?: string;
  /**
   * Set on a delete that an authoritative collection plans for a member it does not list (a hook, a
   * collaborator, a label): the collection, by a name unique in the plan (`github/acme/api/webhook`),
   * and how many members it holds live. The engine caps such removals per collection (issue #27).
   */
  removal?: Removal;
  /** Its place among its repository's changes when they are applied; unset: by kind. */
  step?: Step;
  /** The flag it is applied with only; unset: apply carries it out. */
  gate?: Gate;
  /**
   * Set on a report that stands for a change apply will not send: its repository is archived and
   * stays so (`archived_repositories: skip`). Its diff says what differs.
   */
  not_applied?: "archived";
  /** Set (with `held`) on a delete the removal limit holds. */
  capped?: RemovalCap;
  /** Why this change could not be planned; the rest of the plan is still computed. */
  error?: ChangeError;
  /** What the change needs this plan to create (checked by the engine, src/engine/needs.ts). */
  needs?: Need;
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  report: number;
  "no-op": number;
}

export interface Plan {
  format_version: 1;
  changes: Change[];
  summary: PlanSummary;
  /** Number of changes that carry an error. */
  errors: number;
  /**
   * The configuration files a saved plan (`plan --out`) was made from, as given on the command line
   * (relative to the working directory), so `apply PLAN.json` can re-plan them and check nothing moved.
   */
  config?: string[];
  /**
   * The plan was made with `--rotate-secrets` (write-only values sent again), so `apply PLAN.json`
   * re-plans the same way to check it.
   */
  rotate_secrets?: true;
  /**
   * The plan was made with `--rotate-secret NAME` for these names, so `apply PLAN.json` re-plans
   * sending the same secrets again.
   */
  rotate_secret?: string[];
  /**
   * The plan covers shard `index` of `count` (`--shard K/N`, 1-based), so `plan --merge` can tell a
   * complete set of shard plans from one that misses or repeats a shard.
   */
  shard?: { index: number; count: number };
  /**
   * The plan holds only what changed in the configuration since a revision (`plan --changed-from`);
   * `apply` refuses it unless told `--allow-partial`.
   */
  partial?: PartialPlan;
  /**
   * The `--target` patterns the plan was made with: it holds only what they match, and
   * `apply PLAN.json` re-plans with the same ones to check it.
   */
  targets?: string[];
  /** What reading live state for the plan cost, against the service's limits (./budget.ts). */
  budget?: ReadBudget;
  /**
   * The removal limit raised for the run that made the plan (`--removal-limit`, `--delete-limit`),
   * so `apply PLAN.json` re-plans with the same limit to check it.
   */
  removal_limit?: Partial<Pick<RemovalLimit, "share" | "deletes">>;
}

/**
 * Which write-only values a plan sends again although they cannot be compared: every one
 * (`--rotate-secrets`), and those named (`--rotate-secret NAME`: a secret's name, or the environment
 * variable a value is read from).
 */
export interface Rotation {
  rotateSecrets?: boolean;
  rotateSecretNames?: readonly string[];
}

/** The plan, recording the rotation it was made with. */
export function withRotation(plan: Plan, rotation: Rotation): Plan {
  const names = rotation.rotateSecretNames ?? [];
  return {
    ...plan,
    ...(rotation.rotateSecrets ? { rotate_secrets: true as const } : {}),
    ...(names.length > 0 ? { rotate_secret: [...names] } : {}),
  };
}

/** The rotation a plan was made with, to plan it again the same way. */
export function rotationOf(plan: Plan): Rotation {
  return {
    rotateSecrets: plan.rotate_secrets === true,
    rotateSecretNames: plan.rotate_secret ?? [],
  };
}

export interface PartialPlan {
  /** The revision the configuration was compared with, as given. */
  changed_from: string;
  /**
   * Resources whose desired state is the same at that revision, which were neither read nor planned:
   * those of every repository compared and of every section entry.
   */
  unchanged: number;
  /** Unchanged glob entries whose repositories were not listed, so are not counted in `unchanged`. */
  unlisted: string[];
  /** Resources the revision's configuration managed and this one does not: left as they are. */
  no_longer_managed: string[];
}

/**
 * Counts the changes by action. A change that could not be planned is counted in the plan's
 * `errors`, not here: nothing is known of what it would do, so it is not "unchanged" either.
 */
export function summarize(changes: readonly Change[]): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, delete: 0, report: 0, "no-op": 0 };
  for (const change of changes) if (change.error === undefined) summary[change.action] += 1;
  return summary;
}

/** The one place an address is built: `<target>/<scope>/<kind>/<name>`. */
export function addressOf(target: string, scope: string, kind: string, name: string): string {
  return `${target}/${scope}/${kind}/${name}`;
}

/**
 * Changes by where their resources live — one kind in one scope of one target — e.g. what an apply
 * deleted, which the plan that verifies it asks each kind about.
 */
export class ChangesByPlace {
  readonly #byPlace = new Map<string, Change[]>();

  constructor(changes: Iterable<Change>) {
    for (const change of changes) {
      const place = addressOf(change.target, change.scope, change.kind, "");
      const list = this.#byPlace.get(place);
      if (list) list.push(change);
      else this.#byPlace.set(place, [change]);
    }
  }

  /** The changes of one kind in one scope of one target. */
  at(target: string, scope: string, kind: string): readonly Change[] {
    return this.#byPlace.get(addressOf(target, scope, kind, "")) ?? [];
  }
}

/**
 * A listing that failed (a repository's hooks or invitations, a glob's repositories, a user's gists)
 * is planned as one change named `*` with the listing's error: it stands for whatever the listing
 * would have found, so a plan, a saved plan's check and apply's check never take its absence for
 * "nothing there".
 */
export function unlistedChange(
  target: string,
  scope: string,
  kind: string,
  error: ChangeError,
): Change {
  return { ...newChange(target, scope, kind, "*"), error };
}

/**
 * What a kind plans for a place (a repository, a project, a group) this plan creates: nothing yet,
 * a report to plan again once it exists.
 */
export function awaitingCreation(target: string, scope: string, kind: string, by: string): Change {
  return {
    ...newChange(target, scope, kind, "*"),
    action: "report",
    findings: [
      `planned once ${scope} exists: this plan creates it (${by}), so plan again after apply`,
    ],
  };
}

/** Whether a change stands for a listing that failed (see `unlistedChange`). */
export function isUnlisted(change: Change): boolean {
  return change.name === "*" && change.error !== undefined;
}

/** A change that is a no-op until its kind decides otherwise. */
export function newChange(target: string, scope: string, kind: string, name: string): Change {
  return {
    address: addressOf(target, scope, kind, name),
    kind,
    action: "no-op",
    target,
    scope,
    name,
    diff: [],
    requests: [],
  };
}

/** The plan's stable order: by kind in the order given (the registry's), then as given. */
export function orderChanges(changes: readonly Change[], kinds: readonly string[]): Change[] {
  const rank = new Map(kinds.map((kind, index) => [kind, index]));
  return changes
    .map((change, index) => ({ change, index }))
    .sort(
      (a, b) =>
        (rank.get(a.change.kind) ?? kinds.length) - (rank.get(b.change.kind) ?? kinds.length) ||
        a.index - b.index,
    )
    .map(({ change }) => change);
}

export function makePlan(changes: Change[]): Plan {
  return {
    format_version: 1,
    changes,
    summary: summarize(changes),
    errors: changes.filter((change) => change.error !== undefined).length,
  };
}

/** Whether the plan has work to apply: creates, updates or deletes (reports alone do not count). */
export function hasChanges(plan: Plan): boolean {
  return plan.summary.create + plan.summary.update + plan.summary.delete > 0;
}

export const OUTCOMES = ["applied", "failed", "held", "skipped"] as const;
/**
 * applied: every request of the change succeeded; failed: a request failed (see status/message);
 * held: not attempted because something holds the resource (e.g. a running migration locks the repository);
 * skipped: not attempted by choice (a delete without --allow-delete, or nothing to do).
 */
export type Outcome = (typeof OUTCOMES)[number];

export interface ChangeOutcome {
  address: string;
  kind: string;
  action: Action;
  outcome: Outcome;
  /** The request that failed, "PUT /repos/acme/api/branches/main/protection". */
  request?: string;
  status?: number;
  /** One line: why it failed, was held or skipped. */
  message?: string;
}

/** A change apply carried out that the re-plan could not check, and why (one line). */
export interface UncheckedChange {
  address: string;
  reason: string;
}

export interface ApplyReport {
  outcomes: ChangeOutcome[];
  /** The re-plan after apply; verified when it holds no create/update/delete for what was applied. */
  verification?: Plan;
  verified: boolean;
  /**
   * What was applied and could not be checked by the re-plan: it could not read it again (its read
   * failed), or it has no entry for it. Absent when there is none.
   */
  unchecked?: UncheckedChange[];
}
