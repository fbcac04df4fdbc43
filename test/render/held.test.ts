import { describe, expect, it } from "vitest";
import { makePlan } from "../../src/core/plan.js";
import { capRemovals, DEFAULT_REMOVAL_LIMIT } from "../../src/engine/removal-caps.js";
import { renderPlan } from "../../src/render/index.js";
import { change } from "./fixtures.js";

/** acme/api's collaborators: authoritative mode removes 3 of 4, which the default limit holds. */
function heldPlan() {
  const removals = ["mona", "hubot", "outside-contractor"].map((login) =>
    change({
      kind: "access",
      action: "delete",
      target: "github",
      scope: "acme/api",
      name: `users/${login}`,
      diff: [{ path: "role", before: "write" }],
      requests: [{ method: "DELETE", path: `/repos/acme/api/collaborators/${login}` }],
      removal: { collection: "github/acme/api/access/users", live: 4 },
    }),
  );
  return capRemovals(makePlan(removals), DEFAULT_REMOVAL_LIMIT);
}

const SUMMARY =
  "Held by the removal limit: 3 deletes in github/acme/api/access/users: 3 of 4 (75 %) would be removed, over the removal limit of 25 % (at least 2); raise it with --removal-limit 75 or removal_limit.share; --allow-delete alone does not apply them.";

describe("deletes the removal limit holds", () => {
  it("are marked held in the text plan, which says once what holds them and what raises it", () => {
    const text = renderPlan(heldPlan(), "text");
    expect(text).toContain(
      [
        "- github/acme/api/access/users/mona will be deleted (held)",
        '    - role: "write"',
        "    held: by the removal limit (the plan's summary says why)",
      ].join("\n"),
    );
    // The reason is said at the first change it holds, not again at each.
    expect(text.split("held: by the removal limit").length - 1).toBe(1);
    expect(text.split("will be deleted (held)").length - 1).toBe(3);
    expect(text.trimEnd().split("\n").slice(-2)).toEqual([
      "Plan: 0 to create, 0 to update, 3 to delete (3 held), 0 to report, 0 unchanged.",
      SUMMARY,
    ]);
  });

  it("are marked held in the markdown plan too", () => {
    const markdown = renderPlan(heldPlan(), "markdown");
    expect(markdown).toContain("- ⏸️ _held:_ by the removal limit (the plan's summary says why)");
    // Markdown escapes the underscore of removal_limit.
    expect(markdown).toContain(`⏸️ ${SUMMARY.replace("removal_limit", "removal\\_limit")}`);
  });

  it("carry their hold in the JSON plan", () => {
    const json = JSON.parse(renderPlan(heldPlan(), "json")) as {
      changes: Array<{ held?: string; capped?: unknown }>;
    };
    expect(json.changes[0]).toMatchObject({
      held: expect.stringMatching(/^3 of 4 \(75 %\) would be removed/),
      capped: { by: "collection", count: 3, live: 4, allowed: 2 },
    });
  });
});
