import { describe, expect, it } from "vitest";
import { call, DEV, READER, sandbox } from "./helpers.js";

/**
 * The GitLab areas GitLab CI's steps use (merge requests and their notes, a commit's merge
 * requests, issues and their notes), as GitLab's documentation and lib/api/notes.rb answer, with
 * the labels they carry (the labels area's records). The demo's acme/api has !1 (forgeplan ci's),
 * !2 (labelled `enhancement`) and issues #1–#3 (#3 closed), so a new issue is #4.
 */

const api = "/api/v4/projects/1";
const MR_HEAD = "4a7c9e2b1d3f5a6c8e0b2d4f6a8c0e2b4d6f8a0c";

describe("GitLab merge requests and their notes", () => {
  it("serves the demo world's open !1, its merge and the merge requests of a commit", async () => {
    const sb = await sandbox();
    const open = await call(sb, "GET", `${api}/merge_requests?state=opened`);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject([
      { iid: 2, state: "opened", labels: ["enhancement"] },
      { iid: 1, project_id: 1, state: "opened", sha: MR_HEAD, merge_commit_sha: null, labels: [] },
    ]);
    const branch = await call(sb, "GET", `${api}/merge_requests?source_branch=protect-release`);
    expect(branch.body).toMatchObject([{ iid: 1 }]);
    expect((await call(sb, "GET", `${api}/merge_requests?labels=None`)).body).toMatchObject([
      { iid: 1 },
    ]);
    const detailed = await call(sb, "GET", `${api}/merge_requests?with_labels_details=true`);
    expect((detailed.body as Array<{ labels: unknown[] }>)[0]!.labels).toEqual([
      {
        id: expect.any(Number),
        name: "enhancement",
        description: "Enhancement proposal",
        text_color: "#FFFFFF",
        description_html: "Enhancement proposal",
        color: "#5CB85C",
        archived: false,
      },
    ]);
    expect((await call(sb, "GET", `${api}/merge_requests?state=merged`)).body).toEqual([]);
    expect((await call(sb, "GET", `${api}/merge_requests/3`)).status).toBe(404);
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
    // A Guest of the project may open an issue; octo-reader is a Reporter of acme/api, so the
    // labels no label has are made as project labels.
    const opened = await call(sb, "POST", `${api}/issues`, {
      token: READER,
      body: { title: "Drift", description: "what drifted", labels: "infra, forgeplan-drift" },
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      iid: 4,
      state: "opened",
      labels: ["forgeplan-drift", "infra"],
      author: { username: "octo-reader" },
    });
    const listed = async (query: string) =>
      ((await call(sb, "GET", `${api}/issues?${query}`)).body as Array<{ iid: number }>).map(
        (issue) => issue.iid,
      );
    expect(await listed("labels=forgeplan-drift&state=opened")).toEqual([4]);
    expect(await listed("labels=forgeplan-drift,other")).toEqual([]);
    expect(await listed("labels=None")).toEqual([]);
    expect(await listed("labels=Any&sort=asc")).toEqual([1, 2, 3, 4]);
    expect(await listed("state=closed")).toEqual([3]);
    expect(await listed("search=DRIFTED")).toEqual([4]);
    const reader = (opened.body as { author: { id: number } }).author.id;
    expect(await listed(`author_id=${reader}`)).toEqual([4]);
    expect(await listed("order_by=title&sort=asc")).toEqual([3, 4, 1, 2]);

    const issue = `${api}/issues/4`;
    expect(
      (await call(sb, "PUT", issue, { token: DEV, body: { state_event: "close" } })).status,
    ).toBe(200);
    expect(await listed("state=closed")).toEqual([4, 3]);
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
    expect(note.body).toMatchObject({ noteable_type: "Issue", noteable_iid: 4 });
    expect((await call(sb, "POST", `${api}/issues`, { body: { description: "x" } })).body).toEqual({
      error: "title is missing",
    });
  });

  it("assigns labels by name as the labels area's records: made where none exists, renamed and deleted with them", async () => {
    const sb = await sandbox();
    // `bug` is group acme's, `enhancement` acme/api's own; `triaged` is made with GitLab's default
    // colour (Label::DEFAULT_COLOR, #6699cc) as a label of acme/api.
    const opened = await call(sb, "POST", `${api}/issues`, {
      body: { title: "Labelled", labels: "bug,enhancement,triaged,bug" },
    });
    expect(opened.body).toMatchObject({ iid: 4, labels: ["bug", "enhancement", "triaged"] });
    const labels = (await call(sb, "GET", `${api}/labels?with_counts=true`)).body as Array<{
      id: number;
      name: string;
      color: string;
      is_project_label: boolean;
      open_issues_count: number;
    }>;
    const triaged = labels.find((label) => label.name === "triaged")!;
    expect(triaged).toMatchObject({
      color: "#6699cc",
      is_project_label: true,
      open_issues_count: 1,
    });
    // A Guest (octo-reader in group acme, so in acme/web) cannot make labels: the name is dropped.
    const web = await call(sb, "POST", "/api/v4/projects/2/issues", {
      token: READER,
      body: { title: "Guest's", labels: "bug,brand-new" },
    });
    expect(web.body).toMatchObject({ labels: ["bug"] });

    // Edits: add_labels makes a missing one too, remove_labels takes off by name.
    const issue = `${api}/issues/4`;
    const edited = await call(sb, "PUT", issue, {
      body: { add_labels: "needs-triage,extra", remove_labels: "enhancement,unknown" },
    });
    expect(edited.body).toMatchObject({ labels: ["bug", "extra", "needs-triage", "triaged"] });
    // A rename in place shows on the issue; a delete takes the label off it.
    await call(sb, "PUT", `${api}/labels/${triaged.id}`, { body: { new_name: "triage-done" } });
    await call(sb, "DELETE", `${api}/labels/extra`);
    const detailed = (
      (await call(sb, "GET", `${api}/issues?labels=triage-done&with_labels_details=true`))
        .body as Array<{ labels: Array<{ id: number; name: string }> }>
    )[0]!;
    expect(detailed.labels.map((label) => [label.name, label.id === triaged.id])).toEqual([
      ["bug", false],
      ["needs-triage", false],
      ["triage-done", true],
    ]);
    // `labels` replaces them all.
    const replaced = await call(sb, "PUT", issue, { body: { labels: "" } });
    expect(replaced.body).toMatchObject({ labels: [] });
  });
});
