import { createPrivateKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signAppJwt } from "../../src/forge/app-jwt.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, INSTALLATION_ID } from "../helpers/apps.js";
import { ALICE, BOB, userWorldFile } from "../helpers/user-world.js";
import { call, sandbox } from "./helpers.js";
import { check, responseSchema } from "./openapi-check.js";

const names = (repos: Array<{ full_name: string }>) => repos.map((repo) => repo.full_name);

/** An installation token of installation 77 on alice's account, minted with the App's JWT. */
async function installationToken(sb: RunningSandbox): Promise<string> {
  const jwt = signAppJwt(APP_ID, createPrivateKey(appKeys().privateKey), Date.now());
  const minted = await call(sb, "POST", `/app/installations/${INSTALLATION_ID}/access_tokens`, {
    token: jwt.reveal(),
  });
  expect(minted.status).toBe(201);
  return minted.body.token as string;
}

describe("GET /users/{username}/repos", () => {
  it("lists the account's public repositories only, even to the account itself", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    for (const token of [ALICE, BOB, null]) {
      const listed = await call(sb, "GET", "/users/alice/repos", { token });
      expect(names(listed.body)).toEqual(["alice/site"]);
    }
    const schema = responseSchema("/users/{username}/repos", "get");
    expect(
      check(schema, (await call(sb, "GET", "/users/alice/repos", { token: ALICE })).body),
    ).toEqual([]);
  });

  it("takes type owner (the default), member and all; an unknown type as the default", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    const listed = async (type: string) =>
      names((await call(sb, "GET", `/users/alice/repos?type=${type}`, { token: ALICE })).body);
    expect(await listed("owner")).toEqual(["alice/site"]);
    expect(await listed("member")).toEqual(["bob/blog"]);
    expect(await listed("all")).toEqual(["alice/site", "bob/blog"]);
    expect(await listed("private")).toEqual(["alice/site"]);
  });

  it("gives an installation the public repositories only, covered or not", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    const token = await installationToken(sb);
    expect(names((await call(sb, "GET", "/users/alice/repos", { token })).body)).toEqual([
      "alice/site",
    ]);
  });
});

describe("GET /user/repos", () => {
  it("lists every repository the caller has explicit permission on, private ones included", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    const listed = await call(sb, "GET", "/user/repos", { token: ALICE });
    expect(listed.status).toBe(200);
    expect(names(listed.body)).toEqual([
      "alice/notes",
      "alice/site",
      "alice/wiki",
      "bob/blog",
      "bob/shared",
      "guild/tools",
    ]);
    expect(check(responseSchema("/user/repos", "get"), listed.body)).toEqual([]);
  });

  it.each([
    ["affiliation=owner", ["alice/notes", "alice/site", "alice/wiki"]],
    ["affiliation=collaborator", ["bob/blog", "bob/shared"]],
    ["affiliation=organization_member", ["guild/tools"]],
    [
      "affiliation=owner,collaborator&visibility=private",
      ["alice/notes", "alice/wiki", "bob/shared"],
    ],
    ["visibility=public", ["alice/site", "bob/blog"]],
    ["type=owner", ["alice/notes", "alice/site", "alice/wiki"]],
    ["type=private", ["alice/notes", "alice/wiki", "bob/shared", "guild/tools"]],
    ["type=member", ["bob/blog", "bob/shared", "guild/tools"]],
  ])("filters by %s", async (query, expected) => {
    const sb = await sandbox({ seed: userWorldFile() });
    const listed = await call(sb, "GET", `/user/repos?${query}`, { token: ALICE });
    expect(names(listed.body)).toEqual(expected);
  });

  it("refuses type together with visibility or affiliation with GitHub's 422", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    for (const query of ["type=owner&visibility=all", "type=all&affiliation=owner"]) {
      const refused = await call(sb, "GET", `/user/repos?${query}`, { token: ALICE });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toBe("Validation Failed");
      expect(check(responseSchema("/user/repos", "get", "422"), refused.body)).toEqual([]);
    }
  });

  it("pages with Link headers", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    const first = await call(sb, "GET", "/user/repos?affiliation=owner&per_page=2", {
      token: ALICE,
    });
    expect(names(first.body)).toEqual(["alice/notes", "alice/site"]);
    expect(first.headers.get("link")).toContain('affiliation=owner&per_page=2&page=2>; rel="next"');
    const second = await call(sb, "GET", "/user/repos?affiliation=owner&per_page=2&page=2", {
      token: ALICE,
    });
    expect(names(second.body)).toEqual(["alice/wiki"]);
  });

  it("answers 401 without a token and, as GET /user does, 403 to an installation", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    expect((await call(sb, "GET", "/user/repos", { token: null })).status).toBe(401);
    const token = await installationToken(sb);
    for (const path of ["/user", "/user/repos"]) {
      const refused = await call(sb, "GET", path, { token });
      expect([refused.status, refused.body.message]).toEqual([
        403,
        "Resource not accessible by integration",
      ]);
    }
  });
});

describe("GET /installation/repositories", () => {
  it("lists the installation's repositories in GitHub's wrapper, a page at a time", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    const token = await installationToken(sb);
    const all = await call(sb, "GET", "/installation/repositories", { token });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total_count: 2, repository_selection: "selected" });
    expect(names(all.body.repositories)).toEqual(["alice/site", "alice/notes"]);
    expect(check(responseSchema("/installation/repositories", "get"), all.body)).toEqual([]);
    const first = await call(sb, "GET", "/installation/repositories?per_page=1", { token });
    expect(first.headers.get("link")).toContain(
      '/installation/repositories?per_page=1&page=2>; rel="next"',
    );
    const second = await call(sb, "GET", "/installation/repositories?per_page=1&page=2", {
      token,
    });
    expect(second.body.total_count).toBe(2);
    expect(names(second.body.repositories)).toEqual(["alice/notes"]);
  });

  it("covers every repository of the account when the installation is on all of them", async () => {
    const sb = await sandbox({ seed: userWorldFile("all") });
    const token = await installationToken(sb);
    const all = await call(sb, "GET", "/installation/repositories", { token });
    expect(all.body).toMatchObject({ total_count: 3, repository_selection: "all" });
    expect(names(all.body.repositories)).toEqual(["alice/wiki", "alice/site", "alice/notes"]);
  });

  it("refuses a personal token with 403 and no token with 401", async () => {
    const sb = await sandbox({ seed: userWorldFile() });
    const personal = await call(sb, "GET", "/installation/repositories", { token: ALICE });
    expect(personal.status).toBe(403);
    expect(personal.body.message).toBe(
      "You must authenticate with an installation access token in order to list repositories for an installation.",
    );
    expect(
      check(responseSchema("/installation/repositories", "get", "403"), personal.body),
    ).toEqual([]);
    expect((await call(sb, "GET", "/installation/repositories", { token: null })).status).toBe(401);
  });
});
