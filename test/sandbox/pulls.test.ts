import { describe, expect, it } from "vitest";
import { call, READER, sandbox } from "./helpers.js";
import { check, responseSchema } from "./openapi-check.js";

const PULLS = "/repos/{owner}/{repo}/pulls";
const MERGE = "/repos/{owner}/{repo}/pulls/{pull_number}/merge";
const BY_COMMIT = "/repos/{owner}/{repo}/commits/{commit_sha}/pulls";

describe("pull requests", () => {
  it("open, merge and are found by the commit that merged them, in GitHub's shapes", async () => {
    const sb = await sandbox();
    const opened = await call(sb, "POST", "/repos/acme/api/pulls", {
      body: { title: "Tighten main", head: "release", base: "main", body: "Two approvals." },
    });
    expect(opened.status).toBe(201);
    expect(check(responseSchema(PULLS, "post", "201"), opened.body)).toEqual([]);
    expect(opened.body).toMatchObject({ number: 1, state: "open", merged: false, merged_at: null });
    const head: string = opened.body.head.sha;

    const open = await call(sb, "GET", `/repos/acme/api/commits/${head}/pulls`);
    expect(open.status).toBe(200);
    expect(check(responseSchema(BY_COMMIT, "get"), open.body)).toEqual([]);
    expect(open.body.map((pull: { number: number }) => pull.number)).toEqual([1]);

    // The pull request is issue 1: its comments go through the issue endpoints.
    const comment = await call(sb, "POST", "/repos/acme/api/issues/1/comments", {
      body: { body: "the plan" },
    });
    expect(comment.status).toBe(201);

    const merged = await call(sb, "PUT", "/repos/acme/api/pulls/1/merge", { body: {} });
    expect(merged.status).toBe(200);
    expect(check(responseSchema(MERGE, "put"), merged.body)).toEqual([]);
    const sha: string = merged.body.sha;
    expect(merged.body).toEqual({ sha, merged: true, message: "Pull Request successfully merged" });
    const main = await call(sb, "GET", "/repos/acme/api/branches/main");
    expect(main.body.commit.sha).toBe(sha);

    const found = await call(sb, "GET", `/repos/acme/api/commits/${sha}/pulls`);
    expect(check(responseSchema(BY_COMMIT, "get"), found.body)).toEqual([]);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ number: 1, state: "closed", merge_commit_sha: sha });
    expect(found.body[0].merged_at).not.toBeNull();
    const issue = await call(sb, "GET", "/repos/acme/api/issues/1");
    expect(issue.body.pull_request.merged_at).toBe(found.body[0].merged_at);
    expect(issue.body.comments).toBe(1);
  });

  it("refuses what GitHub refuses: a second merge, a changed head, unknown branches and commits, readers", async () => {
    const sb = await sandbox();
    await call(sb, "POST", "/repos/acme/api/pulls", {
      body: { title: "t", head: "release", base: "main" },
    });
    const stale = await call(sb, "PUT", "/repos/acme/api/pulls/1/merge", {
      body: { sha: "0".repeat(40) },
    });
    expect(stale.status).toBe(409);
    expect((await call(sb, "PUT", "/repos/acme/api/pulls/1/merge", { body: {} })).status).toBe(200);
    const again = await call(sb, "PUT", "/repos/acme/api/pulls/1/merge", { body: {} });
    expect(again.status).toBe(405);
    expect(again.body.message).toBe("Pull Request is not mergeable");

    const badHead = await call(sb, "POST", "/repos/acme/api/pulls", {
      body: { title: "t", head: "nope", base: "main" },
    });
    expect(badHead.status).toBe(422);
    expect(check(responseSchema(PULLS, "post", "422"), badHead.body)).toEqual([]);
    const unknown = await call(sb, "GET", `/repos/acme/api/commits/${"f".repeat(40)}/pulls`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe(`No commit found for SHA: ${"f".repeat(40)}`);
    const reader = await call(sb, "POST", "/repos/acme/api/pulls", {
      token: READER,
      body: { title: "t", head: "release", base: "main" },
    });
    expect(reader.status).toBe(403);
    const missingHead = await call(sb, "POST", "/repos/acme/api/pulls", {
      body: { title: "t", base: "main" },
    });
    expect(missingHead.status).toBe(422);
  });
});
