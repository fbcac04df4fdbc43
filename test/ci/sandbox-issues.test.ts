import { describe, expect, it } from "vitest";
import { call, READER, sandbox } from "../sandbox/helpers.js";
import { check, responseSchema } from "../sandbox/openapi-check.js";

const ISSUES = "/repos/acme/api/issues";
const ISSUES_SPEC = "/repos/{owner}/{repo}/issues";

describe("sandbox issues and issue comments", () => {
  it("opens, lists, edits and closes issues in GitHub's shapes", async () => {
    const sb = await sandbox();
    const opened = await call(sb, "POST", ISSUES, { body: { title: "Drift", body: "first" } });
    expect(opened.status).toBe(201);
    expect(check(responseSchema(ISSUES_SPEC, "post", "201"), opened.body)).toEqual([]);
    expect(opened.body).toMatchObject({ number: 1, state: "open", body: "first", comments: 0 });
    await call(sb, "POST", ISSUES, { body: { title: "Second" } });

    const open = await call(sb, "GET", ISSUES);
    expect(check(responseSchema(ISSUES_SPEC, "get"), open.body)).toEqual([]);
    expect(open.body.map((issue: { number: number }) => issue.number)).toEqual([2, 1]);

    const closed = await call(sb, "PATCH", `${ISSUES}/1`, {
      body: { state: "closed", state_reason: "completed", body: "edited" },
    });
    expect(check(responseSchema(`${ISSUES_SPEC}/{issue_number}`, "patch"), closed.body)).toEqual(
      [],
    );
    expect(closed.body).toMatchObject({
      state: "closed",
      state_reason: "completed",
      body: "edited",
    });
    expect(closed.body.closed_at).toEqual(expect.any(String));
    expect((await call(sb, "GET", ISSUES)).body).toHaveLength(1);
    expect((await call(sb, "GET", `${ISSUES}?state=closed`)).body[0].number).toBe(1);
    expect((await call(sb, "GET", `${ISSUES}?state=all`)).body).toHaveLength(2);

    const reopened = await call(sb, "PATCH", `${ISSUES}/1`, { body: { state: "open" } });
    expect(reopened.body).toMatchObject({
      state: "open",
      state_reason: "reopened",
      closed_at: null,
    });
  });

  it("adds, lists and edits comments; pages them with Link headers", async () => {
    const sb = await sandbox();
    await call(sb, "POST", ISSUES, { body: { title: "PR stand-in" } });
    const created = await call(sb, "POST", `${ISSUES}/1/comments`, { body: { body: "one" } });
    expect(created.status).toBe(201);
    const commentsPath = "/repos/{owner}/{repo}/issues/{issue_number}/comments";
    expect(check(responseSchema(commentsPath, "post", "201"), created.body)).toEqual([]);
    for (const text of ["two", "three"]) {
      await call(sb, "POST", `${ISSUES}/1/comments`, { body: { body: text } });
    }
    const page = await call(sb, "GET", `${ISSUES}/1/comments?per_page=2`);
    expect(check(responseSchema(commentsPath, "get"), page.body)).toEqual([]);
    expect(page.body.map((c: { body: string }) => c.body)).toEqual(["one", "two"]);
    expect(page.headers.get("link")).toContain('rel="next"');

    const edited = await call(sb, "PATCH", `/repos/acme/api/issues/comments/${created.body.id}`, {
      body: { body: "one, edited" },
    });
    expect(edited.status).toBe(200);
    expect(
      check(
        responseSchema("/repos/{owner}/{repo}/issues/comments/{comment_id}", "patch"),
        edited.body,
      ),
    ).toEqual([]);
    expect((await call(sb, "GET", `${ISSUES}/1`)).body.comments).toBe(3);
    const again = await call(sb, "GET", `/repos/acme/api/issues/comments/${created.body.id}`);
    expect(again.body.body).toBe("one, edited");
  });

  it("refuses bodies over 65,536 characters, missing titles, and edits without rights", async () => {
    const sb = await sandbox();
    const tooLong = await call(sb, "POST", ISSUES, {
      body: { title: "x", body: "a".repeat(65_537) },
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual([
      {
        resource: "Issue",
        code: "custom",
        message: "body is too long (maximum is 65536 characters)",
      },
    ]);
    expect((await call(sb, "POST", ISSUES, { body: { body: "no title" } })).status).toBe(422);
    await call(sb, "POST", ISSUES, { body: { title: "admin's" } });
    const comment = await call(sb, "POST", `${ISSUES}/1/comments`, { body: { body: "ok" } });
    const longComment = await call(
      sb,
      "PATCH",
      `/repos/acme/api/issues/comments/${comment.body.id}`,
      {
        body: { body: "b".repeat(65_537) },
      },
    );
    expect(longComment.status).toBe(422);
    const byReader = await call(sb, "PATCH", `/repos/acme/api/issues/comments/${comment.body.id}`, {
      token: READER,
      body: { body: "hijacked" },
    });
    expect(byReader.status).toBe(403);
    const closeByReader = await call(sb, "PATCH", `${ISSUES}/1`, {
      token: READER,
      body: { state: "closed" },
    });
    expect(closeByReader.status).toBe(403);
    expect((await call(sb, "POST", ISSUES, { token: null, body: { title: "anon" } })).status).toBe(
      404,
    );
    const publicIssues = "/repos/octo-admin/dotfiles/issues";
    const anonymous = await call(sb, "POST", publicIssues, {
      token: null,
      body: { title: "anon" },
    });
    expect(anonymous.status).toBe(401);
    expect((await call(sb, "GET", `${ISSUES}/9`)).status).toBe(404);
    expect((await call(sb, "GET", "/repos/acme/api/issues/comments/99")).status).toBe(404);
  });

  it("answers a repeated read of comments with 304 when nothing changed", async () => {
    const sb = await sandbox();
    await call(sb, "POST", ISSUES, { body: { title: "t" } });
    const first = await call(sb, "GET", `${ISSUES}/1/comments`);
    const etag = first.headers.get("etag") ?? "";
    const again = await call(sb, "GET", `${ISSUES}/1/comments`, {
      headers: { "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
  });
});
