import { describeFailure } from "../core/failure-text.js";
import {
  type Change,
  type ChangeOutcome,
  ChangesByPlace,
  type Gate,
  isUnlisted,
  type Plan,
  type PlannedRequest,
  resolveCreatedId,
  type UncheckedChange,
} from "../core/plan.js";
import type { Secret } from "../core/secret.js";
import {
  type ForgeClient,
  ForgeError,
  RateLimitWaitExceeded,
  StoppedBeforeSending,
} from "../forge/client.js";
import { KIND_NAMES, verifyResponse } from "../resources/index.js";
import { gateOpen, gateRefusal } from "./gates.js";
import { batchable, batchWrites, type BatchedWrite } from "./batched-writes.js";
import { applySteps } from "./repository-order.js";
import { PublicKeys } from "./sealing.js";
import { resolveSecrets } from "./secrets.js";

export interface ApplyInput {
  plan: Plan;
  clients: ReadonlyMap<string, ForgeClient>;
  allowDelete: boolean;
  /** The gated changes told to apply (`--allow-visibility`, `--allow-create`); others are skipped. */
  allowed?: readonly Gate[];
  secrets: ReadonlyMap<string, Secret>;
  env: Readonly<Record<string, string | undefined>>;
  onOutcome?: (outcome: ChangeOutcome) => void;
  /** The clients' stop signal: once it fires, nothing further is sent and the result says where. */
  signal?: AbortSignal;
}

/** Why a run ended before every change was tried. */
export type StopReason =
  { kind: "rate-limit"; error: RateLimitWaitExceeded } | { kind: "interrupted" };

export interface ApplyResult {
  /** One per change that has requests, in the plan's order of kinds. */
  outcomes: ChangeOutcome[];
  /**
   * Set when the run stopped early: a rate-limit wait would have exceeded the maximum, or the user
   * interrupted it. Changes not yet sent are reported skipped ("not attempted"); a re-run plans from
   * live state again and so applies exactly what is left.
   */
  stopped?: {
    reason: StopReason;
    /** Changes whose requests were never carried out. */
    notAttempted: number;
    /** Changes whose request was under way when the run was interrupted: applied or not, unknown. */
    unanswered: number;
  };
}

/**
 * The public keys of each target's client, read once per apply (sealed secrets are encrypted with
 * them as their requests are sent).
 */
type KeysByClient = Map<ForgeClient, PublicKeys>;

/** The run-wide stop: once set, no further request starts. */
interface Stop {
  reason?: StopReason;
  notAttempted: number;
  unanswered: number;
}

function outcomeOf(
  change: Change,
  rest: Omit<ChangeOutcome, "address" | "kind" | "action">,
): ChangeOutcome {
  return { address: change.address, kind: change.kind, action: change.action, ...rest };
}

function describe(reason: StopReason): string {
  return reason.kind === "rate-limit" ? reason.error.message : "apply was interrupted";
}

/**
 * The outcome of a change the stop reached before its request `index` was carried out: not attempted
 * when that was its first, failed (part-way) otherwise.
 */
function stoppedAt(change: Change, index: number, stop: Stop, reason: StopReason): ChangeOutcome {
  if (index === 0) {
    stop.notAttempted++;
    return outcomeOf(change, { outcome: "skipped", message: `not attempted: ${describe(reason)}` });
  }
  const request = change.requests[index];
  return outcomeOf(change, {
    outcome: "failed",
    ...(request ? { request: `${request.method} ${request.path}` } : {}),
    message: `stopped after ${index} of ${change.requests.length} requests: ${describe(reason)}`,
  });
}

/** A request the interruption caught on its way: it may have reached the service or not. */
function unanswered(change: Change, label: string, stop: Stop): ChangeOutcome {
  stop.unanswered++;
  return outcomeOf(change, {
    outcome: "skipped",
    request: label,
    message:
      "interrupted before an answer arrived: it may or may not have been applied (a re-run plans from live state)",
  });
}

/** The first wait before a request whose answer meant "not yet" is sent again; it doubles. */
const NOT_YET_FIRST_MS = 100;
const NOT_YET_MOST_MS = 2_000;

/**
 * Sends a request, and again while the service answers what its `retryWhile` names ("not yet":
 * GitLab's new member who cannot be named in a protection for a moment), with waits doubling
 * from 100 ms to 2 s on the client's clock, until `withinMs` from the first answer would be
 * passed; then that answer is the request's failure. Nothing else is retried here (the client
 * retries what may be retried).
 */
async function untilSettled<T>(
  client: ForgeClient,
  request: PlannedRequest,
  signal: AbortSignal | undefined,
  send: () => Promise<T>,
): Promise<T> {
  const retry = request.retryWhile;
  let first: number | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const notYet =
        retry !== undefined &&
        error instanceof ForgeError &&
        error.status === retry.status &&
        error.detail.includes(retry.message);
      if (!notYet) throw error;
      const now = client.clock.now();
      first ??= now;
      const wait = Math.min(NOT_YET_MOST_MS, NOT_YET_FIRST_MS * 2 ** attempt);
      if (now + wait - first > retry.withinMs) throw error;
      await client.clock.sleep(wait, signal);
    }
  }
}

/** The outcome of a change apply does not send (held, gated, without a connection), if it is one. */
function notSent(change: Change, input: ApplyInput): ChangeOutcome | undefined {
  if (change.held) return outcomeOf(change, { outcome: "held", message: change.held });
  if (change.action === "delete" && !input.allowDelete) {
    return outcomeOf(change, { outcome: "skipped", message: "deletes need --allow-delete" });
  }
  if (change.gate !== undefined && !gateOpen(change, input.allowed ?? [])) {
    return outcomeOf(change, { outcome: "skipped", message: gateRefusal(change.gate) });
  }
  if (!input.clients.has(change.target)) {
    return outcomeOf(change, {
      outcome: "failed",
      message: `target '${change.target}' has no connection`,
    });
  }
  return undefined;
}

/**
 * Sends one request that carries out several changes (./batched-writes.ts): each gets the
 * request's outcome. Their requests hold no sealed values, so no public key is read.
 */
async function applyBatch(
  write: BatchedWrite,
  input: ApplyInput,
  stop: Stop,
): Promise<ChangeOutcome[]> {
  const { changes, request } = write;
  const client = input.clients.get(changes[0]!.target)!;
  const label = `${request.method} ${request.path}`;
  const each = (rest: Omit<ChangeOutcome, "address" | "kind" | "action">) =>
    changes.map((change) => outcomeOf(change, rest));
  if (input.signal?.aborted) stop.reason ??= { kind: "interrupted" };
  if (stop.reason !== undefined) {
    return changes.map((change) => stoppedAt(change, 0, stop, stop.reason!));
  }
  try {
    const body = await resolveSecrets(request.body, {
      secrets: input.secrets,
      env: input.env,
      publicKey: () => Promise.reject(new Error("a batched write carries no sealed value")),
    });
    const response = await client.request(request.method, request.path, {
      body,
      writeKey: `${changes[0]!.target}${request.path}`,
    });
    const problem = verifyResponse(changes[0]!.kind, request, response.data);
    if (problem) return each({ outcome: "failed", request: label, message: problem });
    return each({ outcome: "applied" });
  } catch (error) {
    if (error instanceof RateLimitWaitExceeded) {
      stop.reason ??= { kind: "rate-limit", error };
      return changes.map((change) => stoppedAt(change, 0, stop, { kind: "rate-limit", error }));
    }
    if (input.signal?.aborted) {
      stop.reason ??= { kind: "interrupted" };
      return error instanceof StoppedBeforeSending
        ? changes.map((change) => stoppedAt(change, 0, stop, stop.reason!))
        : changes.map((change) => unanswered(change, label, stop));
    }
    if (error instanceof ForgeError) {
      const reason = error.reason || error.message;
      return each({
        outcome: "failed",
        request: label,
        status: error.status,
        message: error.mayHaveBeenApplied
          ? `${reason}; its answer was lost, so it may have been applied (a re-run plans from live state)`
          : reason,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return each({ outcome: "failed", request: label, message });
  }
}

async function applyOne(
  change: Change,
  input: ApplyInput,
  stop: Stop,
  keys: KeysByClient,
): Promise<ChangeOutcome> {
  const refused = notSent(change, input);
  if (refused !== undefined) return refused;
  const client = input.clients.get(change.target)!;
  let publicKeys = keys.get(client);
  if (publicKeys === undefined) {
    publicKeys = new PublicKeys(client);
    keys.set(client, publicKeys);
  }
  const resolution = {
    secrets: input.secrets,
    env: input.env,
    publicKey: (path: string) => publicKeys.get(path),
  };
  let firstAnswer: unknown;
  /** The requests of the change carried out so far, for the report of one that fails after them. */
  const done: string[] = [];
  const failed = (rest: Omit<ChangeOutcome, "address" | "kind" | "action" | "outcome">) =>
    outcomeOf(change, {
      outcome: "failed",
      ...rest,
      ...(rest.message !== undefined && done.length > 0
        ? {
            message: `${rest.message} (after ${done.join(", ")}, which ${done.length > 1 ? "were" : "was"} applied)`,
          }
        : {}),
    });
  for (const [index, planned] of change.requests.entries()) {
    let label = `${planned.method} ${planned.path}`;
    if (input.signal?.aborted) stop.reason ??= { kind: "interrupted" };
    if (stop.reason !== undefined) return stoppedAt(change, index, stop, stop.reason);
    try {
      const request = { ...planned, path: resolveCreatedId(planned.path, firstAnswer) };
      label = `${request.method} ${request.path}`;
      const body =
        request.body === undefined ? undefined : await resolveSecrets(request.body, resolution);
      const response = await untilSettled(client, request, input.signal, () =>
        client.request(request.method, request.path, {
          body,
          writeKey: `${change.target}/${change.scope}`,
          // A PUT that creates its resource counts towards GitHub's content-creation limit, as a POST does.
          creates: change.action === "create",
        }),
      );
      if (index === 0) firstAnswer = response.data;
      const problem = verifyResponse(change.kind, request, response.data);
      if (problem) return failed({ request: label, message: problem });
      if (request.method !== "GET") done.push(label);
    } catch (error) {
      if (error instanceof RateLimitWaitExceeded) {
        // The service did not carry this request out (it was held back or refused as over a limit).
        stop.reason ??= { kind: "rate-limit", error };
        return stoppedAt(change, index, stop, { kind: "rate-limit", error });
      }
      if (input.signal?.aborted) {
        stop.reason ??= { kind: "interrupted" };
        // Writes wait their turn one at a time: most a stop catches were never sent.
        return error instanceof StoppedBeforeSending
          ? stoppedAt(change, index, stop, stop.reason)
          : unanswered(change, label, stop);
      }
      if (error instanceof ForgeError) {
        const reason = error.reason || error.message;
        return failed({
          request: label,
          status: error.status,
          message: error.mayHaveBeenApplied
            ? `${reason}; its answer was lost, so it may have been applied (a re-run plans from live state)`
            : reason,
        });
      }
      const message = error instanceof Error ? error.message : String(error);
      return failed({ request: label, message });
    }
  }
  return outcomeOf(change, { outcome: "applied" });
}

/** The changes apply acts on: those with requests that could be planned. */
export function applicableChanges(plan: Plan): Change[] {
  return plan.changes.filter((change) => change.requests.length > 0 && change.error === undefined);
}

/**
 * Applies every change that has requests in the order of src/engine/repository-order.ts: a
 * repository's creation and unarchive first, then kind by kind in the plan's order (protections,
 * then hooks, then clean-ups) — within a kind the deletes first, as what they remove can stand in
 * the way of the rest (GitHub refuses a hook whose events overlap another's at its URL, which a
 * delete of that hook in the same plan frees) — then renames, archives last. The changes of one
 * step run concurrently across repositories and in order within one; the client serializes writes
 * per repository, spaces them and paces them by
 * the rate budget. Each change is sent once (retries of idempotent requests are the client's); one
 * failure does not stop the others. A rate-limit wait longer than the client allows, or an
 * interruption, stops the run: nothing further is sent, and the result says where it stopped.
 */
export async function applyPlan(input: ApplyInput): Promise<ApplyResult> {
  const stop: Stop = { notAttempted: 0, unanswered: 0 };
  const keys: KeysByClient = new Map();
  const outcomes: ChangeOutcome[] = [];
  for (const step of applySteps(applicableChanges(input.plan), KIND_NAMES)) {
    // A change whose one request may go with other repositories' (./batched-writes.ts) is sent
    // with them; one apply does not send anyway is reported on its own.
    const joined = step.filter(
      (change) => batchable(change) !== undefined && notSent(change, input) === undefined,
    );
    const alone = step.filter((change) => !joined.includes(change));
    // One repository's changes go one after another in the order given (a change another needs is
    // listed first: alerts before security fixes, a visibility change before private vulnerability
    // reporting); repositories go concurrently.
    const byRepository = new Map<string, Change[]>();
    for (const change of alone) {
      const key = `${change.target}\u0000${change.scope.toLowerCase()}`;
      byRepository.set(key, [...(byRepository.get(key) ?? []), change]);
    }
    const done = new Map<Change, ChangeOutcome>();
    await Promise.all([
      ...[...byRepository.values()].map(async (changes) => {
        for (const change of changes) {
          const outcome = await applyOne(change, input, stop, keys);
          input.onOutcome?.(outcome);
          done.set(change, outcome);
        }
      }),
      ...batchWrites(joined).map(async (write) => {
        const outcomes = await applyBatch(write, input, stop);
        write.changes.forEach((change, index) => {
          input.onOutcome?.(outcomes[index]!);
          done.set(change, outcomes[index]!);
        });
      }),
    ]);
    outcomes.push(...step.map((change) => done.get(change)!));
  }
  if (stop.reason === undefined) return { outcomes };
  const { reason, notAttempted, unanswered: caught } = stop;
  return { outcomes, stopped: { reason, notAttempted, unanswered: caught } };
}

/**
 * The deletes apply carried out, for the plan that verifies it: a kind whose deletes remove what no
 * configuration names plans them again from where they lived (`PlanOptions.deleted`).
 */
export function deletesApplied(plan: Plan, outcomes: readonly ChangeOutcome[]): ChangesByPlace {
  const deleted = new Set(
    outcomes
      .filter((outcome) => outcome.outcome === "applied" && outcome.action === "delete")
      .map((outcome) => outcome.address),
  );
  return new ChangesByPlace(plan.changes.filter((change) => deleted.has(change.address)));
}

/** What the plan made after apply says of what was applied. */
export interface Verification {
  /** Every applied change came back as no change. */
  verified: boolean;
  /** The applied changes the re-plan could not check, each with why. */
  unchecked: UncheckedChange[];
}

/** Why the re-plan has no entry for an applied change; what it could not plan of the kind, if any. */
function noEntry(outcome: ChangeOutcome, replan: Plan): string {
  // A glob whose repositories could not be listed plans nothing of them: its `*` change says why.
  const unlisted = replan.changes.find(
    (change) => change.kind === outcome.kind && isUnlisted(change),
  );
  const reason = "the re-plan has no entry for it";
  return unlisted?.error === undefined
    ? reason
    : `${reason}; it could not plan ${unlisted.address}: ${describeFailure(unlisted.error)}`;
}

/**
 * Verification: after apply, a fresh plan must show every applied change as no-op — what was
 * written is what the service keeps, what was deleted is gone (planned as absent: a clean-up entry,
 * a protection set to null, a hook its repository's list no longer holds). Anything else is not
 * verified: a change the re-plan still shows (the service kept something else, or something changed
 * meanwhile), and one it could not check — its read failed, or it has no entry for it (a glob whose
 * listing failed, a repository it no longer selects) — which is named with why. No absence counts
 * as gone by itself: a re-plan that could not read where a deleted resource lived has no entry for
 * it either.
 */
export function verificationOf(outcomes: readonly ChangeOutcome[], replan: Plan): Verification {
  const replanned = new Map(replan.changes.map((change) => [change.address, change]));
  const unchecked: UncheckedChange[] = [];
  let verified = true;
  for (const outcome of outcomes) {
    if (outcome.outcome !== "applied") continue;
    const change = replanned.get(outcome.address);
    if (change !== undefined && change.error === undefined) {
      if (change.action !== "no-op") verified = false;
      continue;
    }
    verified = false;
    const reason =
      change?.error === undefined
        ? noEntry(outcome, replan)
        : `the re-plan could not plan it: ${describeFailure(change.error)}`;
    unchecked.push({ address: outcome.address, reason });
  }
  return { verified, unchecked };
}
