import type { DiffEntry, PlannedRequest, ResourceKind } from "../core/plan.js";
import * as branchProtection from "./branch-protection.js";
import * as webhook from "./webhook.js";

/**
 * After a write, what the service answered is compared with what was sent: the service may silently
 * drop or change values (GitHub drops principals without write access), and that must fail loudly.
 */
const verifiers: Partial<
  Record<ResourceKind, (request: PlannedRequest, response: unknown) => DiffEntry[]>
> = {
  branch_protection: branchProtection.verifyWritten,
  webhook: webhook.verifyWritten,
};

export function verifyResponse(
  kind: ResourceKind,
  request: PlannedRequest,
  response: unknown,
): string | undefined {
  if (request.method === "DELETE") return undefined;
  const verify = verifiers[kind];
  if (!verify) return undefined;
  const diff = verify(request, response);
  if (diff.length === 0) return undefined;
  const parts = diff.map(
    (entry) =>
      `${entry.path}: sent ${JSON.stringify(entry.before ?? null)}, service has ${JSON.stringify(entry.after ?? null)}`,
  );
  return `the service did not keep what was written (${parts.join("; ")})`;
}
