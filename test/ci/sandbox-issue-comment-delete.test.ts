import { describe, expect, it } from "vitest";
import { ADMIN, call, READER, sandbox } from "../sandbox/helpers.js";

const ISSUES = "/repos/acme/api/issues";

describe("sandbox: deleting an issue comment", () => {
  it("lets the author or someone with push rights delete it, answering 204 and then 404", async () => {
    const sb = await sandbox();
    await call(sb, "POST", ISSUES, { body: { title: "PR stand-in" } });
    const own = await call(sb, "POST", `${ISSUES}/1/comments`, { body: { body: "admin's" } });
    const readers = await call(sb, "POST", `${ISSUES}/1/comments`, {
      token: READER,
      body: { body: "reader's" },
    });
    expect(readers.status).toBe(201);
    const kept = await call(sb, "POST", `${ISSUES}/1/comments`, { body: { body: "kept" } });

    const refused = await call(sb, "DELETE", `${ISSUES}/comments/${own.body.id}`, {
      token: READER,
    });
    expect(refused.status).toBe(403);

    const deleted = await call(sb, "DELETE", `${ISSUES}/comments/${own.body.id}`);
    expect(deleted.status).toBe(204);
    expect((await call(sb, "GET", `${ISSUES}/comments/${own.body.id}`)).status).toBe(404);
    expect((await call(sb, "DELETE", `${ISSUES}/comments/${own.body.id}`)).status).toBe(404);

    const byPushRights = await call(sb, "DELETE", `${ISSUES}/comments/${readers.body.id}`, {
      token: ADMIN,
    });
    expect(byPushRights.status).toBe(204);

    const left = await call(sb, "GET", `${ISSUES}/1/comments`);
    expect(left.body.map((comment: { id: number }) => comment.id)).toEqual([kept.body.id]);
    expect((await call(sb, "GET", `${ISSUES}/1`)).body.comments).toBe(1);
  });
});
