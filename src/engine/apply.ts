import {
  type Change,
  type ChangeOutcome,
  type Plan,
  RESOURCE_KINDS,
  type ResourceKind,
} from "../core/plan.js";
import type { Secret } from "../core/secret.js";
import { type ForgeClient, ForgeError } from "../forge/client.js";
import { verifyResponse } from "../resources/verify.js";
import { resolveSecrets } from "./secrets.js";

export interface ApplyInput {
  plan: Plan;
  clients: ReadonlyMap<string, ForgeClient>;
  allowDelete: boolean;
  secrets: ReadonlyMap<string, Secret>;
  env: Readonly<Record<string, string | undefined>>;
  onOutcome?: (outcome: ChangeOutcome) => void;
}

function outcomeOf(
  change: Change,
  rest: Omit<ChangeOutcome, "address" | "kind" | "action">,
): ChangeOutcome {
  return { address: change.address, kind: change.kind, action: change.action, ...rest };
}

async function applyOne(change: Change, input: ApplyInput): Promise<ChangeOutcome> {
  if (change.held) return outcomeOf(change, { outcome: "held", message: change.held });
  if (change.action === "delete" && !input.allowDelete) {
    return outcomeOf(change, { outcome: "skipped", message: "deletes need --allow-delete" });
  }
  const client = input.clients.get(change.target);
  if (!client) {
    return outcomeOf(change, {
      outcome: "failed",
      message: `target '${change.target}' has no connection`,
    });
  }
  for (const request of change.requests) {
    const label = `${request.method} ${request.path}`;
    try {
      const body =
        request.body === undefined
          ? undefined
          : resolveSecrets(request.body, input.secrets, input.env);
      const response = await client.request(request.method, request.path, {
        body,
        writeKey: `${change.target}/${change.scope}`,
      });
      const problem = verifyResponse(change.kind, request, response.data);
      if (problem)
        return outcomeOf(change, { outcome: "failed", request: label, message: problem });
    } catch (error) {
      if (error instanceof ForgeError) {
        return outcomeOf(change, {
          outcome: "failed",
          request: label,
          status: error.status,
          message: error.detail || error.message,
        });
      }
      const message = error instanceof Error ? error.message : String(error);
      return outcomeOf(change, { outcome: "failed", request: label, message });
    }
  }
  return outcomeOf(change, { outcome: "applied" });
}

/**
 * Applies every change that has requests, kind by kind in the plan's order (protections, then hooks,
 * then clean-ups). Within a kind changes run concurrently; the client serializes writes per repository
 * and spaces them. One failure does not stop the others.
 */
export async function applyPlan(input: ApplyInput): Promise<ChangeOutcome[]> {
  const pending = input.plan.changes.filter(
    (change) => change.requests.length > 0 && change.error === undefined,
  );
  const byKind = new Map<ResourceKind, Change[]>();
  for (const change of pending) {
    const list = byKind.get(change.kind) ?? [];
    list.push(change);
    byKind.set(change.kind, list);
  }
  const outcomes: ChangeOutcome[] = [];
  for (const kind of RESOURCE_KINDS) {
    const changes = byKind.get(kind);
    if (!changes) continue;
    const results = await Promise.all(
      changes.map(async (change) => {
        const outcome = await applyOne(change, input);
        input.onOutcome?.(outcome);
        return outcome;
      }),
    );
    outcomes.push(...results);
  }
  return outcomes;
}
