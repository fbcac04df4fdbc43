import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, DEV, sandbox } from "./helpers.js";

/** A seed with one group whose epic 1 is related to each of epics 2 … count+1. */
function manyLinksSeed(count: number): string {
  const epics = Array.from(
    { length: count + 1 },
    (_, index) => `      - { iid: ${index + 1}, title: E${index + 1} }`,
  );
  const links = Array.from(
    { length: count },
    (_, index) => `  - { id: ${index + 1}, source: "big&1", target: "big&${index + 2}" }`,
  );
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-seed-"));
  const path = join(dir, "seed.yaml");
  writeFileSync(
    path,
    [
      "users:",
      "  - { login: alice, id: 1, token: alice-token }",
      "groups:",
      "  - id: 7",
      "    path: big",
      "    name: Big",
      "    members: { alice: owner }",
      "    epics:",
      ...epics,
      "epic_links:",
      ...links,
      "",
    ].join("\n"),
  );
  return path;
}

describe("related epics as GitLab lists them", () => {
  it("answers every related epic at once, with no pagination headers, whatever per_page says", async () => {
    const sb = await sandbox({ seed: manyLinksSeed(40) });
    for (const query of ["", "?per_page=10", "?per_page=10&page=2"]) {
      const { status, body, headers } = await call(
        sb,
        "GET",
        `/api/v4/groups/big/epics/1/related_epics${query}`,
        { token: "alice-token" },
      );
      expect(status).toBe(200);
      expect(
        body.map((epic: { related_epic_link_id: number }) => epic.related_epic_link_id),
      ).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
      expect(headers.get("link")).toBeNull();
      expect(headers.get("x-next-page")).toBeNull();
      expect(headers.get("x-total")).toBeNull();
    }
  });

  it("stores is_blocked_by as blocks from the other epic, and lists it from each side", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", "/api/v4/groups/1/epics/2/related_epics", {
      body: { target_group_id: 1, target_epic_iid: 3, link_type: "is_blocked_by" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      link_type: "blocks",
      source_epic: { iid: 3 },
      target_epic: { iid: 2 },
    });
    const fromBlocked = await call(sb, "GET", "/api/v4/groups/1/epics/2/related_epics");
    expect(fromBlocked.body.find((e: { iid: number }) => e.iid === 3).link_type).toBe(
      "is_blocked_by",
    );
    const fromBlocking = await call(sb, "GET", "/api/v4/groups/1/epics/3/related_epics");
    expect(fromBlocking.body.find((e: { iid: number }) => e.iid === 2).link_type).toBe("blocks");
    const removed = await call(
      sb,
      "DELETE",
      `/api/v4/groups/1/epics/2/related_epics/${created.body.id}`,
    );
    expect(removed.body).toMatchObject({ link_type: "blocks", source_epic: { iid: 3 } });
  });
});

describe("issue boards as GitLab keeps them", () => {
  it("lets two boards of a project share a name, and tells names apart by case", async () => {
    const sb = await sandbox();
    for (const name of ["Legacy triage", "legacy triage"]) {
      const created = await call(sb, "POST", "/api/v4/projects/1/boards", { body: { name } });
      expect(created.status).toBe(201);
    }
    const { body } = await call(sb, "GET", "/api/v4/projects/acme%2Fapi/boards");
    expect(body.map((board: { id: number; name: string }) => [board.id, board.name])).toEqual([
      [1, "Development"],
      [2, "Legacy triage"],
      [4, "Legacy triage"],
      [5, "legacy triage"],
    ]);
  });

  it("keeps a project's last board: its DELETE is refused (400) and the board stays", async () => {
    const sb = await sandbox();
    const refused = await call(sb, "DELETE", "/api/v4/projects/acme%2Fweb/boards/3", {
      token: DEV,
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        message:
          "The board could not be deleted, because the parent doesn't have any other boards.",
      },
    ]);
    const listed = await call(sb, "GET", "/api/v4/projects/2/boards");
    expect(listed.body.map((board: { id: number }) => board.id)).toEqual([3]);
    expect((await call(sb, "DELETE", "/api/v4/projects/1/boards/2")).status).toBe(200);
    const last = await call(sb, "DELETE", "/api/v4/projects/1/boards/1");
    expect(last.status).toBe(400);
  });
});
