import { describe, expect, it } from "vitest";
import { call, DEV, READER, sandbox } from "./helpers.js";

const RELATED = "/api/v4/groups/1/epics/1/related_epics";

describe("groups and epics", () => {
  it("reads groups by id or path and lists epics with GitLab's pagination headers", async () => {
    const sb = await sandbox();
    expect((await call(sb, "GET", "/api/v4/groups/acme")).body).toMatchObject({
      id: 1,
      path: "acme",
    });
    const { status, body, headers } = await call(sb, "GET", "/api/v4/groups/1/epics?per_page=2", {
      token: READER,
    });
    expect(status).toBe(200);
    expect(body.map((epic: { iid: number; title: string }) => [epic.iid, epic.title])).toEqual([
      [1, "Platform v2"],
      [2, "Auth revamp"],
    ]);
    expect(
      Object.fromEntries(
        ["x-total", "x-total-pages", "x-page", "x-per-page", "x-next-page", "x-prev-page"].map(
          (name) => [name, headers.get(name)],
        ),
      ),
    ).toEqual({
      "x-total": "3",
      "x-total-pages": "2",
      "x-page": "1",
      "x-per-page": "2",
      "x-next-page": "2",
      "x-prev-page": "",
    });
    expect(headers.get("link")).toContain('rel="next"');
    expect(headers.get("ratelimit-remaining")).toEqual(headers.get("x-ratelimit-remaining"));
  });

  it("hides groups from non-members (404) and needs credentials (401)", async () => {
    const sb = await sandbox();
    const hidden = await call(sb, "GET", "/api/v4/groups/2", { token: DEV });
    expect([hidden.status, hidden.body.message]).toEqual([404, "404 Group Not Found"]);
    const anonymous = await call(sb, "GET", "/api/v4/groups/1", { token: null });
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: "401 Unauthorized" }]);
    const privateToken = await call(sb, "GET", "/api/v4/groups/1", {
      token: null,
      headers: { "PRIVATE-TOKEN": "sandbox-reader" },
    });
    expect(privateToken.status).toBe(200);
    expect((await call(sb, "GET", "/api/v4/groups/1/epics/9")).status).toBe(404);
  });

  it("lists related epics from either side, with the link id and type", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", RELATED);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ iid: 2, related_epic_link_id: 1, link_type: "relates_to" });
    const back = await call(sb, "GET", "/api/v4/groups/acme/epics/2/related_epics");
    expect(back.body[0]).toMatchObject({ iid: 1, related_epic_link_id: 1 });
    const crossGroup = await call(sb, "GET", "/api/v4/groups/1/epics/3/related_epics");
    expect(crossGroup.body[0]).toMatchObject({ group_id: 2, related_epic_link_id: 2 });
    const devView = await call(sb, "GET", "/api/v4/groups/1/epics/3/related_epics", { token: DEV });
    expect(devView.body).toEqual([]);
  });
});

describe("DELETE related epic link", () => {
  it("removes the link both ways and returns it", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "DELETE", `${RELATED}/1`, { token: READER });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 1,
      source_epic: { iid: 1, title: "Platform v2" },
      target_epic: { iid: 2, title: "Auth revamp" },
      link_type: "relates_to",
    });
    expect((await call(sb, "GET", RELATED)).body).toEqual([]);
    expect((await call(sb, "GET", "/api/v4/groups/1/epics/2/related_epics")).body).toEqual([]);
    const again = await call(sb, "DELETE", `${RELATED}/1`);
    expect([again.status, again.body.message]).toEqual([404, "404 Not found"]);
  });

  it("can be deleted from the target epic's side", async () => {
    const sb = await sandbox();
    const { status } = await call(sb, "DELETE", "/api/v4/groups/partners/epics/1/related_epics/2");
    expect(status).toBe(200);
    expect((await call(sb, "GET", "/api/v4/groups/1/epics/3/related_epics")).body).toEqual([]);
  });

  it("needs a role in both groups (403), and the link must belong to the epic (404)", async () => {
    const sb = await sandbox();
    const dev = await call(sb, "DELETE", "/api/v4/groups/1/epics/3/related_epics/2", {
      token: DEV,
    });
    expect([dev.status, dev.body]).toEqual([403, { message: "403 Forbidden" }]);
    expect((await call(sb, "DELETE", `${RELATED}/2`)).status).toBe(404);
    expect((await call(sb, "DELETE", `${RELATED}/1`, { token: null })).status).toBe(401);
    expect((await call(sb, "GET", "/api/v4/groups/1/epics/3/related_epics")).body).toHaveLength(1);
  });
});

describe("POST related epic link", () => {
  it("links two epics (201) and refuses duplicates (409) and bad parameters (400)", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", "/api/v4/groups/1/epics/2/related_epics", {
      body: { target_group_id: "partners", target_epic_iid: 1, link_type: "blocks" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 3,
      link_type: "blocks",
      target_epic: { group_id: 2 },
    });
    const inverse = await call(sb, "GET", "/api/v4/groups/2/epics/1/related_epics");
    expect(inverse.body.find((e: { iid: number }) => e.iid === 2).link_type).toBe("is_blocked_by");
    const duplicate = await call(
      sb,
      "POST",
      "/api/v4/groups/2/epics/1/related_epics?target_group_id=1&target_epic_iid=2",
    );
    expect(duplicate.status).toBe(409);
    const missing = await call(sb, "POST", "/api/v4/groups/1/epics/2/related_epics", { body: {} });
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: "target_group_id is missing, target_epic_iid is missing" },
    ]);
    const badType = await call(sb, "POST", "/api/v4/groups/1/epics/2/related_epics", {
      body: { target_group_id: 1, target_epic_iid: 3, link_type: "friends" },
    });
    expect(badType.status).toBe(400);
  });
});

describe("issue boards", () => {
  it("lists a project's boards by id or URL-encoded path", async () => {
    const sb = await sandbox();
    const { body } = await call(sb, "GET", "/api/v4/projects/acme%2Fapi/boards", { token: READER });
    expect(body.map((board: { id: number; name: string }) => [board.id, board.name])).toEqual([
      [1, "Development"],
      [2, "Legacy triage"],
    ]);
    expect(body[0].project).toMatchObject({ id: 1, path_with_namespace: "acme/api" });
    const web = await call(sb, "GET", "/api/v4/projects/2/boards");
    expect(web.body.map((board: { id: number }) => board.id)).toEqual([3]);
    expect((await call(sb, "GET", "/api/v4/projects/1")).body.name).toBe("api");
  });

  it("deletes a board and returns it; an unknown board is 404", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "DELETE", "/api/v4/projects/1/boards/2", {
      token: DEV,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 2, name: "Legacy triage", project: { id: 1 } });
    expect((await call(sb, "GET", "/api/v4/projects/1/boards")).body).toHaveLength(1);
    const again = await call(sb, "DELETE", "/api/v4/projects/1/boards/2");
    expect([again.status, again.body.message]).toEqual([404, "404 Board Not Found"]);
    expect((await call(sb, "DELETE", "/api/v4/projects/1/boards/3")).status).toBe(404);
    expect((await call(sb, "DELETE", "/api/v4/projects/99/boards/1")).status).toBe(404);
  });

  it("needs Reporter or higher to delete or create boards", async () => {
    const sb = await sandbox();
    // octo-reader is a Guest of acme, and a Reporter of acme/api until that membership goes.
    expect((await call(sb, "DELETE", "/api/v4/projects/1/members/2")).status).toBe(204);
    const guest = await call(sb, "DELETE", "/api/v4/projects/1/boards/1", { token: READER });
    expect(guest.status).toBe(403);
    expect((await call(sb, "GET", "/api/v4/projects/1/boards")).body).toHaveLength(2);
    const create = await call(sb, "POST", "/api/v4/projects/1/boards", {
      token: READER,
      body: { name: "Nope" },
    });
    expect(create.status).toBe(403);
  });

  it("creates a board (201); a missing name is 400", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", "/api/v4/projects/1/boards", { body: { name: "Ops" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 4, name: "Ops" });
    const missing = await call(sb, "POST", "/api/v4/projects/1/boards", { body: {} });
    expect([missing.status, missing.body]).toEqual([400, { error: "name is missing" }]);
  });
});
