import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { ResourceReader } from "../../src/resources/context.js";
import { auditGists } from "../../src/resources/gist/plan.js";
import { auditInvitations } from "../../src/resources/invitation/plan.js";
import { auditMigration } from "../../src/resources/migration/plan.js";
import { answer, clientOf, hostile, json } from "./server.js";

/**
 * Audit reads answered in ways the sandbox never answers: an audit reports only what the answer
 * shows, and an answer it cannot judge by is an error, never an audit of nothing.
 */

type Reads = Record<string, unknown>;

/** Answers the paths given with 200 and their bodies; anything else is a 404. */
async function readerOf(reads: Reads): Promise<ResourceReader> {
  const server = await hostile((req, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path in reads) return answer(res, 200, json, reads[path]);
    answer(res, 404, json, { message: "Not Found" });
  });
  return new ResourceReader("github", clientOf(server.url).client);
}

const ME = { login: "octo-admin", id: 1 };
const gist = (id: string, login: string, extra: Record<string, unknown> = {}) => ({
  id,
  public: true,
  description: null,
  owner: { login },
  user: null,
  files: { "a.md": {} },
  updated_at: "2026-05-01T00:00:00Z",
  ...extra,
});

describe("the gist audit", () => {
  it("audits nothing when the list holds someone else's gist: it is not the user's own list", async () => {
    const reader = await readerOf({
      "/user": ME,
      "/gists": [gist("aaaa1111", "octo-admin"), gist("bbbb2222", "stranger")],
    });
    const changes = await auditGists(reader, {});
    expect(changes).toEqual([
      expect.objectContaining({
        address: "github/gists/gist/*",
        action: "no-op",
        error: {
          message:
            "answered 200 with gist bbbb2222 of stranger among the gists of octo-admin, the token's user: not that user's own list, so nothing was audited",
          request: "GET /gists",
          status: 200,
        },
      }),
    ]);
  });

  it("takes a gist without `public` for an error, not for a secret gist", async () => {
    const withoutPublic = gist("cccc3333", "octo-admin");
    delete (withoutPublic as Partial<typeof withoutPublic>).public;
    const reader = await readerOf({ "/user": ME, "/gists": [withoutPublic] });
    const [change] = await auditGists(reader, {});
    expect(change?.error?.message).toContain("not a list of gists");
    expect(change?.error?.message).toContain("public");
  });

  it("takes a 404 for the list for an error, not for a user without gists", async () => {
    const reader = await readerOf({ "/user": ME });
    const [change] = await auditGists(reader, {});
    expect(change?.error).toMatchObject({ request: "GET /gists", status: 404 });
  });
});

describe("the migration audit", () => {
  const MIGRATION = { id: 5, state: "exported", lock_repositories: false };

  it("reads the repositories from the migration's list when its record leaves them out", async () => {
    const reader = await readerOf({
      "/orgs/acme/migrations/5": MIGRATION,
      "/orgs/acme/migrations/5/repositories": [
        { full_name: "acme/api" },
        { full_name: "acme/web" },
      ],
    });
    const { change, live } = await auditMigration(reader, {
      org: "acme",
      id: 5,
      repositories: ["acme/api", "acme/web"],
    });
    expect(change.action).toBe("no-op");
    expect(change.error).toBeUndefined();
    expect(live?.repositories).toEqual(["acme/api", "acme/web"]);
  });

  it("takes a record without lock_repositories for an error, not for an unlocked migration", async () => {
    const reader = await readerOf({
      "/orgs/acme/migrations/5": { id: 5, state: "exporting", repositories: [] },
    });
    const { change, live } = await auditMigration(reader, { org: "acme", id: 5 });
    expect(live).toBeUndefined();
    expect(change.error?.message).toContain("lock_repositories");
  });

  it("says a missing organization migration may be one the token's user does not own", async () => {
    const reader = await readerOf({});
    const { change } = await auditMigration(reader, { org: "acme", id: 9 });
    expect(change.error).toEqual({
      message:
        "migration 9 of organization acme was not found (or the token's user is not an owner of acme)",
      request: "GET /orgs/acme/migrations/9",
      status: 404,
    });
  });
});

describe("the invitation audit", () => {
  const repo = { owner: "acme", name: "api" };
  const NOW = Date.parse("2026-11-22T00:00:00Z");
  const invitation = {
    id: 7,
    invitee: null,
    inviter: { login: "octo-admin" },
    permissions: "write",
    created_at: "2026-11-20T00:00:00Z",
  };

  it("says an invitee that is not shown cannot be matched, rather than naming one", async () => {
    const reader = await readerOf({ "/repos/acme/api/invitations": [invitation] });
    const changes = await auditInvitations(reader, repo, { allowed_invitees: ["octo-*"] }, NOW);
    expect(changes[0]?.findings).toEqual([
      "invitation 7: (invitee not shown) (write) invited by octo-admin",
      "the invitee is not shown, so it cannot be matched against allowed_invitees (octo-*)",
    ]);
  });

  it("takes an invitation without created_at for an error, not for one of no age", async () => {
    const undated: Partial<typeof invitation> = { ...invitation, invitee: null };
    delete undated.created_at;
    const reader = await readerOf({ "/repos/acme/api/invitations": [undated] });
    const [change] = await auditInvitations(reader, repo, { max_age_days: 1 }, NOW);
    expect(change?.error?.message).toContain("created_at");
    expect(change?.action).toBe("no-op");
  });
});
