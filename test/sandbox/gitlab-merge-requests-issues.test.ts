import { describe, expect, it } from "vitest";
import { call, DEV, READER, sandbox } from "./helpers.js";

/**
 * The GitLab areas GitLab CI's steps use (merge requests and their notes, a commit's merge
 * requests, issues and their notes), as GitLab's documentation and lib/api/notes.rb answer.
 */

const api = "/api/v4/projects/1";
const MR_HEAD = "4a7c9e2b1d3f5a6c8e0b2d4f6a8c0e2b4d6f8a0c";

describe("GitLab merge requests and their notes", () => {
  it("serves the demo world's open !1, its merge and the merge requests of a commit", async () => {
    const sb = await sandbox();
    const open = await call(sb, "GET", `${api}/merge_requests?state=opened`);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject([
      { iid: 1, project_id: 1, state: "opened", sha: MR_HEAD, merge_commit_sha: null },
    ]);
    expect((await call(sb, "GET", `${api}/merge_requests?state=merged`)).body).toEqual([]);
    expect((await call(sb, "GET", `${api}/merge_requests/2`)).status).toBe(404);
    expect((await call(sb, "GET", `${api}/merge_requests?state=shut`)).body).toEqual({
      error: "state does not have a valid value",
    });
    // A head commit's merge requests list the open one; an unknown commit lists none.
    const byHead = await call(sb, "GET", `${api}/repository/commits/${MR_HEAD}/merge_requests`);
    expect(byHead.body).toMatchObject([{ iid: 1 }]);

    expect((await call(sb, "PUT", `${api}/merge_requests/1/merge`, { token: READER })).status).toBe(
      401,
    );
    const merged = await call(sb, "PUT", `${api}/merge_requests/1/merge`, { token: DEV });
    expect(merged.status).toBe(200);
    const { merge_commit_sha: sha } = merged.body as { merge_commit_sha: string };
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(merged.body).toMatchObject({ state: "merged", merged_by: { username: "octo-dev" } });
    const byMerge = await call(sb, "GET", `${api}/repository/commits/${sha}/merge_requests`);
    expect(byMerge.body).toMatchObject([{ iid: 1, state: "merged", merge_commit_sha: sha }]);
    expect((await call(sb, "PUT", `${api}/merge_requests/1/merge`)).body).toEqual({
      message: "405 Method Not Allowed",
    });
  });

  it("creates, lists, edits and deletes notes within GitLab's 1,000,000 characters", async () => {
    const sb = await sandbox();
    const notes = `${api}/merge_requests/1/notes`;
    const first = await call(sb, "POST", notes, { body: { body: "first" } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      body: "first",
      author: { username: "octo-admin" },
      system: false,
      noteable_type: "MergeRequest",
      noteable_iid: 1,
    });
    const longest = await call(sb, "POST", notes, { body: { body: "x".repeat(1_000_000) } });
    expect(longest.status).toBe(201);
    const tooLong = await call(sb, "POST", notes, { body: { body: "x".repeat(1_000_001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({
      message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}',
    });
    expect((await call(sb, "POST", notes, { body: {} })).body).toEqual({
      error: "body is missing",
    });
    // Newest first unless asked (lib/api/notes.rb: `sort` defaults to desc).
    const ids = (body: unknown) => (body as Array<{ id: number }>).map((note) => note.id);
    const firstId = (first.body as { id: number }).id;
    const longestId = (longest.body as { id: number }).id;
    expect(ids((await call(sb, "GET", notes)).body)).toEqual([longestId, firstId]);
    expect(ids((await call(sb, "GET", `${notes}?sort=asc`)).body)).toEqual([firstId, longestId]);

    const edit = `${notes}/${firstId}`;
    expect((await call(sb, "PUT", edit, { token: DEV, body: { body: "not mine" } })).status).toBe(
      403,
    );
    expect((await call(sb, "PUT", edit, { body: { body: "x".repeat(1_000_001) } })).status).toBe(
      400,
    );
    const edited = await call(sb, "PUT", edit, { body: { body: "edited" } });
    expect(edited.body).toMatchObject({ id: firstId, body: "edited" });
    expect((await call(sb, "DELETE", edit)).status).toBe(204);
    expect((await call(sb, "GET", edit)).status).toBe(404);
  });
});

describe("GitLab issues", () => {
  it("opens, filters by labels and state, edits, closes and reopens an issue", async () => {
    const sb = await sandbox();
    // A Guest of the project may open an issue.
    const opened = await call(sb, "POST", `${api}/issues`, {
      token: READER,
      body: { title: "Drift", description: "what drifted", labels: "forgeplan-drift, infra" },
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      iid: 1,
      state: "opened",
      labels: ["forgeplan-drift", "infra"],
      author: { username: "octo-reader" },
    });
    const listed = async (query: string) =>
      ((await call(sb, "GET", `${api}/issues?${query}`)).body as Array<{ iid: number }>).map(
        (issue) => issue.iid,
      );
    expect(await listed("labels=forgeplan-drift&state=opened")).toEqual([1]);
    expect(await listed("labels=forgeplan-drift,other")).toEqual([]);
    expect(await listed("labels=None")).toEqual([]);
    expect(await listed("state=closed")).toEqual([]);

    const issue = `${api}/issues/1`;
    expect(
      (await call(sb, "PUT", issue, { token: DEV, body: { state_event: "close" } })).status,
    ).toBe(200);
    expect(await listed("state=closed")).toEqual([1]);
    expect((await call(sb, "GET", issue)).body).toMatchObject({
      state: "closed",
      closed_by: { username: "octo-dev" },
    });
    const reopened = await call(sb, "PUT", issue, { body: { state_event: "reopen" } });
    expect(reopened.body).toMatchObject({ state: "opened", closed_at: null });
    expect((await call(sb, "PUT", issue, { body: { state_event: "shut" } })).body).toEqual({
      error: "state_event does not have a valid value",
    });
    const tooLong = await call(sb, "PUT", issue, {
      body: { description: "x".repeat(1_000_001) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({
      message: { description: ["is too long (maximum is 1000000 characters)"] },
    });
    const note = await call(sb, "POST", `${issue}/notes`, { body: { body: "resolved" } });
    expect(note.body).toMatchObject({ noteable_type: "Issue", noteable_iid: 1 });
    expect((await call(sb, "POST", `${api}/issues`, { body: { description: "x" } })).body).toEqual({
      error: "title is missing",
    });
  });
});
