import type { Plan } from "../../core/plan.js";

/**
 * A plan's counts in GitLab's Terraform report format, which a job names under
 * `artifacts:reports:terraform` so the merge-request widget shows "N to add, N to change, N to
 * delete": one JSON object `{"create": n, "update": n, "delete": n}`, as GitLab's own Terraform
 * integration writes it from `terraform show -json` (doc/user/infrastructure/iac/mr_integration.md).
 * Audit findings change nothing and are not counted.
 */
export function terraformReport(plan: Plan): string {
  const { create, update, delete: deletes } = plan.summary;
  return `${JSON.stringify({ create, update, delete: deletes })}\n`;
}
