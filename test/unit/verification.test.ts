import { describe, expect, it } from "vitest";
import { makePlan, newChange, type Change, type ChangeOutcome } from "../../src/core/plan.js";
import { deletesApplied, verificationOf } from "../../src/engine/apply.js";

const address = "github/acme/api/branch_protection/main";
const applied = (action: ChangeOutcome["action"]): ChangeOutcome => ({
  address,
  kind: "branch_protection",
  action,
  outcome: "applied",
});
const replanned = (action: Change["action"]): Change => ({
  address,
  kind: "branch_protection",
  action,
  target: "github",
  scope: "acme/api",
  name: "main",
  diff: [],
  requests: [],
});

/** An applied delete of a change as `newChange` names it. */
function deleted(change: Change): ChangeOutcome {
  return { address: change.address, kind: change.kind, action: "delete", outcome: "applied" };
}

const hook = newChange("github", "acme/api", "webhook", "https://chat.acme.example/notify");
const board = newChange("gitlab", "acme/api", "board", "Legacy triage");
const link = newChange("gitlab", "acme", "epic_link", "1-2");
const listingFailed = {
  message: "Server Error",
  request: "GET /repos/acme/api/hooks",
  status: 502,
};

describe("verification after apply", () => {
  it("holds when the re-plan shows what was applied as no change", () => {
    expect(verificationOf([applied("update")], makePlan([replanned("no-op")]))).toEqual({
      verified: true,
      unchecked: [],
    });
  });

  it("fails when the re-plan still shows a change for it", () => {
    expect(verificationOf([applied("update")], makePlan([replanned("update")]))).toEqual({
      verified: false,
      unchecked: [],
    });
  });

  it("fails when the re-plan did not read what was created or updated at all", () => {
    // A glob whose listing failed in the re-plan leaves its repositories out of it entirely.
    expect(verificationOf([applied("create")], makePlan([])).verified).toBe(false);
    expect(verificationOf([applied("update")], makePlan([])).verified).toBe(false);
  });

  it("looks only at what was applied", () => {
    const outcomes: ChangeOutcome[] = [
      { ...applied("delete"), outcome: "skipped", message: "deletes need --allow-delete" },
      { ...applied("update"), outcome: "failed", message: "422" },
    ];
    expect(verificationOf(outcomes, makePlan([]))).toEqual({ verified: true, unchecked: [] });
  });
});

describe("verification of what was deleted", () => {
  it("holds when the re-plan plans it as already absent", () => {
    // A clean-up entry, a protection set to null, a hook its repository's list no longer holds.
    for (const change of [board, link, hook, replanned("no-op")]) {
      expect(verificationOf([deleted(change)], makePlan([change]))).toEqual({
        verified: true,
        unchecked: [],
      });
    }
  });

  it("never counts a deleted resource missing from the re-plan as gone", () => {
    // The re-plan could not list the repository's hooks, or no longer read the repository at all.
    expect(verificationOf([deleted(hook)], makePlan([]))).toEqual({
      verified: false,
      unchecked: [{ address: hook.address, reason: "the re-plan has no entry for it" }],
    });
  });

  it("names the read that failed where the re-plan could not plan it", () => {
    const boards = {
      message: "500 Internal Server Error",
      request: "GET /api/v4/projects/acme%2Fapi/boards",
      status: 500,
    };
    const replan = makePlan([
      { ...board, error: boards },
      { ...hook, error: listingFailed },
    ]);
    expect(verificationOf([deleted(board), deleted(hook)], replan)).toEqual({
      verified: false,
      unchecked: [
        {
          address: board.address,
          reason:
            "the re-plan could not plan it: GET /api/v4/projects/acme%2Fapi/boards → 500: Internal Server Error",
        },
        {
          address: hook.address,
          reason: "the re-plan could not plan it: GET /repos/acme/api/hooks → 502: Server Error",
        },
      ],
    });
  });

  it("says which glob the re-plan could not list when it has no entry for a deleted hook", () => {
    const glob = {
      ...newChange("github", "acme/*", "webhook", "*"),
      error: { message: "Server Error", request: "GET /orgs/acme/repos", status: 502 },
    };
    const { unchecked } = verificationOf([deleted(hook)], makePlan([glob]));
    expect(unchecked).toEqual([
      {
        address: hook.address,
        reason:
          "the re-plan has no entry for it; it could not plan github/acme/*/webhook/*: GET /orgs/acme/repos → 502: Server Error",
      },
    ]);
  });

  it("fails without calling it unchecked when the re-plan would delete it again", () => {
    const again = { ...hook, action: "delete" as const };
    expect(verificationOf([deleted(hook)], makePlan([again]))).toEqual({
      verified: false,
      unchecked: [],
    });
  });
});

describe("the deletes a verifying re-plan is told of", () => {
  it("are the applied deletes, by where they lived", () => {
    const other = newChange("github", "acme/api", "webhook", "https://old.acme.example/hook");
    const skipped = newChange("github", "acme/web", "webhook", "https://old.acme.example/hook");
    const plan = makePlan([hook, other, skipped, board].map((c) => ({ ...c, action: "delete" })));
    const outcomes: ChangeOutcome[] = [
      deleted(hook),
      deleted(other),
      { ...deleted(skipped), outcome: "skipped", message: "deletes need --allow-delete" },
      deleted(board),
    ];
    const byPlace = deletesApplied(plan, outcomes);
    expect(byPlace.at("github", "acme/api", "webhook").map((c) => c.name)).toEqual([
      hook.name,
      other.name,
    ]);
    expect(byPlace.at("github", "acme/web", "webhook")).toEqual([]);
    expect(byPlace.at("gitlab", "acme/api", "board").map((c) => c.address)).toEqual([
      board.address,
    ]);
  });
});
