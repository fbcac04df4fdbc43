import { describe, expect, it } from "vitest";
import { normalizeRuleset } from "../../src/resources/ruleset/canonical.js";

const read = (parameters: Record<string, unknown>) => ({
  id: 9,
  name: "reviewed",
  enforcement: "active",
  bypass_actors: [],
  conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
  rules: [
    { type: "deletion" },
    {
      type: "pull_request",
      parameters: {
        required_approving_review_count: 1,
        dismiss_stale_reviews_on_push: false,
        require_code_owner_review: false,
        require_last_push_approval: false,
        required_review_thread_resolution: false,
        allowed_merge_methods: ["merge", "squash", "rebase"],
        ...parameters,
      },
    },
  ],
});

describe("rule parameters forgeplan does not know", () => {
  it("ignores one that is off, as GitHub answers it when not set", () => {
    const off = normalizeRuleset(
      read({ automatic_copilot_code_review_enabled: false, some_list: [], some_count: 0 }),
      false,
    );
    const absent = normalizeRuleset(read({}), false);
    expect(off.kind).toBe("ok");
    expect(off).toEqual(absent);
  });

  it("names one that is set: a write without it would reset it", () => {
    expect(
      normalizeRuleset(
        read({ automatic_copilot_code_review_enabled: true, review_mode: "strict" }),
        false,
      ),
    ).toEqual({
      kind: "unknown",
      settings: [
        "pull_request.automatic_copilot_code_review_enabled: true",
        'pull_request.review_mode: "strict"',
      ],
    });
  });

  it("names a bypass actor of a type it does not know instead of calling the read malformed", () => {
    const withOwner = {
      ...read({}),
      bypass_actors: [
        { actor_id: null, actor_type: "EnterpriseOwner", bypass_mode: "always" },
        { actor_id: 5, actor_type: "RepositoryRole", bypass_mode: "always" },
      ],
    };
    expect(normalizeRuleset(withOwner, false)).toEqual({
      kind: "unknown",
      settings: ["bypass actor EnterpriseOwner"],
    });
  });
});
