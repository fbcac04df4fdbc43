import { describe, expect, it } from "vitest";
import { reviewedPlan } from "../../src/report/github/reviewed-plan.js";
import { reportDriftIssue } from "../../src/report/drift-issue.js";
import { commentMarker, upsertStickyComment } from "../../src/report/sticky-comment.js";
import { answer, clientOf, failure, hostile, json } from "./server.js";

/**
 * The listings the comment, the drift issue and the reviewed apply read, answered with items that
 * are not the operation's shape: each is an error naming the request and where the item differs,
 * and nothing is written — an item without its author is not "someone else's" (which would post a
 * second comment or issue), a pull request with a broken merged_at is not "unmerged".
 */
function listing(items: unknown[]) {
  return hostile((req, res) => {
    if (req.method === "GET") return answer(res, 200, json, items);
    answer(res, 201, json, { id: 1, number: 1, html_url: "x" });
  });
}

describe("listings of the Action's comment, the drift issue and the merged pull request", () => {
  it("a comment without its author fails the comment, and no comment is posted", async () => {
    const service = await listing([{ id: 7, body: commentMarker("k"), html_url: "x" }]);
    const { client } = clientOf(service.url);
    const ref = { owner: "acme", repo: "api", number: 3 };
    const error = await failure(upsertStickyComment(client, ref, commentMarker("k"), "me", "b"));
    expect(error.message).toMatch(
      /^GET \/repos\/acme\/api\/issues\/3\/comments answered 200 with a body that is not a list of issue comments: \[0\]\.user: /,
    );
    expect(service.seen.map((seen) => seen.method)).toEqual(["GET"]);
  });

  it("an issue whose number is text fails the drift report, and no issue is opened", async () => {
    const service = await listing([
      { number: "1", body: "<!-- forgeplan-drift -->", html_url: "x", user: { login: "me" } },
    ]);
    const { client } = clientOf(service.url);
    const error = await failure(
      reportDriftIssue(client, {
        owner: "acme",
        repo: "api",
        drifted: true,
        author: "me",
        body: "drift",
        resolvedNote: "none",
      }),
    );
    expect(error.message).toContain(
      "answered 200 with a body that is not a list of issues: [0].number: ",
    );
    expect(service.seen.map((seen) => seen.method)).toEqual(["GET"]);
  });

  it("a pull request whose merged_at is not a time or null fails the look-up of the review", async () => {
    const service = await listing([{ number: 3, merged_at: 5, merge_commit_sha: "abc" }]);
    const { client } = clientOf(service.url);
    const error = await failure(
      reviewedPlan(client, { owner: "acme", repo: "api", sha: "abc" }, commentMarker("k"), ["me"]),
    );
    expect(error.message).toContain(
      "/commits/abc/pulls answered 200 with a body that is not a list of pull requests: [0].merged_at: ",
    );
  });
});
