import { describe, expect, it } from "vitest";
import { type Change, newChange } from "../../src/core/plan.js";
import { batchWrites } from "../../src/engine/batched-writes.js";

/** A repository's change whose one request sets `value` of `team` and may be joined with others'. */
function change(repo: string, value: string, max = 30): Change {
  return {
    ...newChange("github", `acme/${repo}`, "custom_property", "team"),
    action: "update",
    requests: [
      {
        method: "PATCH",
        path: "/orgs/acme/properties/values",
        body: { repository_names: [repo], properties: [{ property_name: "team", value }] },
        batch: { list: "repository_names", max },
      },
    ],
  };
}

describe("batched writes", () => {
  it("joins the requests that differ only in the list, at most max members a request", () => {
    const changes = [
      ...Array.from({ length: 7 }, (_, index) => change(`r${index}`, "core", 3)),
      change("other", "web", 3),
    ];
    const writes = batchWrites(changes);
    expect(
      writes.map(
        (write) => (write.request.body as { repository_names: string[] }).repository_names,
      ),
    ).toEqual([["r0", "r1", "r2"], ["r3", "r4", "r5"], ["r6"], ["other"]]);
    expect(writes.map((write) => write.changes.length)).toEqual([3, 3, 1, 1]);
    // The joined request is sent as planned, without the batch mark.
    expect(writes[0]!.request).toEqual({
      method: "PATCH",
      path: "/orgs/acme/properties/values",
      body: {
        repository_names: ["r0", "r1", "r2"],
        properties: [{ property_name: "team", value: "core" }],
      },
    });
  });

  it("sends a member two changes name once", () => {
    const writes = batchWrites([change("api", "core"), change("api", "core")]);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.changes).toHaveLength(2);
    expect((writes[0]!.request.body as { repository_names: string[] }).repository_names).toEqual([
      "api",
    ]);
  });
});
