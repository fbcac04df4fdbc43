import { makePlan, type ApplyReport, type Change, type Plan } from "../../src/core/plan.js";

/** Small, realistic plans and reports the renderer tests share. */

export function change(
  fields: Partial<Change> & Pick<Change, "kind" | "action" | "target" | "scope" | "name">,
): Change {
  return {
    address: `${fields.target}/${fields.scope}/${fields.kind}/${fields.name}`,
    diff: [],
    requests: [],
    ...fields,
  };
}

export const createProtection = change({
  kind: "branch_protection",
  action: "create",
  target: "github",
  scope: "acme/web",
  name: "main",
  diff: [
    { path: "enforce_admins", after: true },
    { path: "required_status_checks.checks", after: [{ context: "ci/test" }] },
  ],
  requests: [
    {
      method: "PUT",
      path: "/repos/acme/web/branches/main/protection",
      body: {
        enforce_admins: true,
        required_status_checks: { strict: false, checks: [{ context: "ci/test" }] },
      },
    },
  ],
});

export const updateHook = change({
  kind: "webhook",
  action: "update",
  target: "github",
  scope: "acme/api",
  name: "ci",
  diff: [
    { path: "events", before: ["push"], after: ["pull_request", "push"] },
    { path: "config.secret", before: "********", after: "hunter2", sensitive: true },
  ],
  requests: [
    {
      method: "PATCH",
      path: "/repos/acme/api/hooks/1",
      body: { events: ["pull_request", "push"], config: { secret: { $secret: "CI_HOOK_SECRET" } } },
    },
  ],
  notes: ["secret could not be verified (write-only)"],
});

export const deleteBoard = change({
  kind: "board",
  action: "delete",
  target: "planning",
  scope: "acme/api",
  name: "2",
  diff: [{ path: "name", before: "Old board" }],
  requests: [{ method: "DELETE", path: "/api/v4/projects/1/boards/2" }],
});

export const reportInvitation = change({
  kind: "invitation",
  action: "report",
  target: "github",
  scope: "acme/api",
  name: "3",
  findings: ["octo-rogue was invited 45 days ago (maximum 30)"],
});

export const unchangedProtection = change({
  kind: "branch_protection",
  action: "no-op",
  target: "github",
  scope: "acme/api",
  name: "main",
});

export const missingBranch = change({
  kind: "branch_protection",
  action: "no-op",
  target: "github",
  scope: "acme/ghost",
  name: "main",
  error: { message: "Not Found", request: "GET /repos/acme/ghost/branches/main", status: 404 },
});

export function realisticPlan(): Plan {
  return makePlan([
    updateHook,
    unchangedProtection,
    createProtection,
    deleteBoard,
    reportInvitation,
    missingBranch,
  ]);
}

export function appliedReport(): ApplyReport {
  return {
    outcomes: [
      {
        address: createProtection.address,
        kind: "branch_protection",
        action: "create",
        outcome: "applied",
      },
      {
        address: updateHook.address,
        kind: "webhook",
        action: "update",
        outcome: "failed",
        request: "PATCH /repos/acme/api/hooks/1",
        status: 422,
        message: "Validation Failed",
      },
      {
        address: deleteBoard.address,
        kind: "board",
        action: "delete",
        outcome: "skipped",
        message: "deletes need --allow-delete",
      },
    ],
    verification: makePlan([
      { ...createProtection, action: "no-op", diff: [], requests: [] },
      updateHook,
      deleteBoard,
    ]),
    verified: false,
  };
}
