/** A protected environment as GitLab answers it, and what a write must read back. */
import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { liveEntry, unkept } from "../protected-ref-access.js";

/**
 * GitLab's ProtectedEnvironment (docs, "Protected environments API"): its name, who may deploy
 * (`deploy_access_levels`, each with its id and `group_inheritance_type`), the older
 * `required_approval_count` and the approval rules (each with `required_approvals`).
 */
const deployLevel = liveEntry.extend({ group_inheritance_type: z.number().int().optional() });
const approvalRule = liveEntry.extend({
  required_approvals: z.number().int(),
  group_inheritance_type: z.number().int().optional(),
});

export const readEnvironment = z.looseObject({
  name: z.string(),
  deploy_access_levels: z.array(deployLevel),
  required_approval_count: z.number().int().optional(),
  approval_rules: z.array(approvalRule).optional(),
});
export type ReadEnvironment = z.infer<typeof readEnvironment>;
export type ReadDeployLevel = z.infer<typeof deployLevel>;
export type ReadApprovalRule = z.infer<typeof approvalRule>;

export const ENVIRONMENT_SHAPE = { name: "protected environments", schema: readEnvironment };

/** An environment as compared and shown: entries by name, sorted; rules with their approvals. */
export interface CanonicalEnvironment {
  deploy_access_levels: string[];
  approval_rules?: string[];
  required_approval_count?: number;
}

/** What the answer to a protect or an update did not keep of what was sent. */
export function verifyEnvironment(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "POST" && request.method !== "PUT") return [];
  const parsed = readEnvironment.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a protected environment", after: "something else" }];
  const sent = request.body as {
    deploy_access_levels?: Array<Record<string, unknown>>;
    approval_rules?: Array<Record<string, unknown>>;
    required_approval_count?: number;
  };
  const missing: DiffEntry[] = [];
  const lists = [
    ["deploy_access_levels", sent.deploy_access_levels, parsed.data.deploy_access_levels],
    ["approval_rules", sent.approval_rules, parsed.data.approval_rules ?? []],
  ] as const;
  for (const [path, items, entries] of lists) {
    // An update by id (`required_approvals` of a rule) is checked on the rule it names.
    const added = (items ?? []).filter((item) => item.id === undefined || item._destroy === true);
    for (const item of unkept(added, entries)) missing.push({ path, before: item });
    for (const item of (items ?? []).filter((one) => one.id !== undefined && !one._destroy)) {
      const rule = entries.find((entry) => entry.id === item.id);
      const approvals = rule && "required_approvals" in rule ? rule.required_approvals : undefined;
      if (approvals !== item.required_approvals)
        missing.push({ path, before: item, after: approvals });
    }
  }
  if (
    sent.required_approval_count !== undefined &&
    parsed.data.required_approval_count !== sent.required_approval_count
  ) {
    missing.push({
      path: "required_approval_count",
      before: sent.required_approval_count,
      after: parsed.data.required_approval_count,
    });
  }
  return missing;
}
