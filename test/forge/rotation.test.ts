import { createHash, createPrivateKey } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { AppInstallationAuth } from "../../src/forge/app-auth.js";
import { createAppRequest } from "../../src/forge/app-request.js";
import { DirectoryCache, ForgeClient, systemClock } from "../../src/forge/client.js";
import { githubValidator } from "../../src/forge/validator.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appSeedFile, INSTALLATION_ID } from "../helpers/apps.js";
import { call } from "../sandbox/helpers.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService, type Reply } from "./fake-service.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-rotation-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("the validator GitHub computes", () => {
  it("is SHA-256 over the hashed headers present, each with ':', then the body", () => {
    const body = Buffer.from('{"a":1}');
    // `printf '%s' 'application/vnd.github+json:Bearer hunter2:{"a":1}' | sha256sum`
    expect(
      githubValidator(
        { accept: "application/vnd.github+json", authorization: "Bearer hunter2" },
        body,
        undefined,
        false,
      ),
    ).toBe('"2cd03eae42e071431d2643e3ceafdb66bbeeaf87816559298a1d7290c6d0e161"');
    // SHA-256 of nothing at all, weak.
    expect(githubValidator({}, Buffer.alloc(0), undefined, true)).toBe(
      'W/"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
    );
  });

  it("leaves out a header the answer does not vary by", () => {
    const body = Buffer.from("[]");
    const expected = createHash("sha256").update("application/json:[]").digest("hex");
    expect(
      githubValidator(
        { accept: "application/json", authorization: "Bearer x" },
        body,
        ["accept", "accept-encoding"],
        false,
      ),
    ).toBe(`"${expected}"`);
  });
});

/** A client acting as installation 77 with a token of its own, as each scheduled run has. */
function appClient(sb: RunningSandbox, cache: DirectoryCache): ForgeClient {
  return new ForgeClient({
    baseUrl: sb.url,
    kind: "repository",
    cache,
    auth: new AppInstallationAuth({
      appId: APP_ID,
      privateKey: createPrivateKey(appKeys().privateKey),
      installationId: INSTALLATION_ID,
      request: createAppRequest({ baseUrl: sb.url, userAgent: "forgeplan-test" }),
      clock: systemClock,
    }),
  });
}

const READS = [
  "/repos/acme/api/branches/main/protection",
  "/repos/acme/api/hooks",
  "/orgs/acme/repos",
];

async function readAll(client: ForgeClient) {
  const results = [];
  for (const path of READS) results.push(await client.request("GET", path));
  return results;
}

describe("a conditional cache keyed by who the token acts as", () => {
  it("answers a run with a new installation token from 304s, made for that token", async () => {
    const sb = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    cleanups.push(() => sb.stop());
    const dir = tempDir();
    const first = await readAll(appClient(sb, new DirectoryCache(dir)));
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(READS.length);

    const second = await readAll(appClient(sb, new DirectoryCache(dir)));
    expect(sb.stats().installation_tokens_issued).toBe(2);
    expect(second.map((response) => [response.status, response.fromCache])).toEqual(
      READS.map(() => [304, true]),
    );
    expect(second.map((response) => response.data)).toEqual(first.map((response) => response.data));
    // The directory did not grow with the new token.
    expect(readdirSync(dir).sort()).toEqual(files);
    for (const file of files) expect(readFileSync(join(dir, file), "utf8")).not.toContain("ghs_");
  });

  it("sees a change made between runs: the changed resource is read in full", async () => {
    const sb = await startSandbox({ port: 0, seed: appSeedFile(appKeys().publicKey) });
    cleanups.push(() => sb.stop());
    const dir = tempDir();
    await readAll(appClient(sb, new DirectoryCache(dir)));
    const edited = await call(sb, "PATCH", "/repos/acme/api/hooks/2", { body: { active: false } });
    expect(edited.status).toBe(200);
    const second = await readAll(appClient(sb, new DirectoryCache(dir)));
    expect(second.map((response) => response.status)).toEqual([304, 200, 304]);
    const hooks = second[1]!.data as Array<{ id: number; active: boolean }>;
    expect(hooks.find((hook) => hook.id === 2)?.active).toBe(false);
  });

  it("keys a static token by its account, so a new token of the same user keeps the entries", async () => {
    const sb = await startSandbox({ port: 0 });
    cleanups.push(() => sb.stop());
    const dir = tempDir();
    const client = (token: string) =>
      new ForgeClient({
        baseUrl: sb.url,
        kind: "repository",
        token: new Secret(token, "T"),
        cache: new DirectoryCache(dir),
      });
    await client("sandbox-admin").get("/repos/acme/api/hooks");
    const reader = client("sandbox-reader");
    // Another user: its own entry, no validator borrowed from the admin's answer.
    const other = await reader.request("GET", "/repos/acme/web");
    expect(other.fromCache).toBe(false);
    expect(readdirSync(dir)).toHaveLength(2);
    const again = client("sandbox-admin");
    expect((await again.request("GET", "/repos/acme/api/hooks")).fromCache).toBe(true);
  });

  it("misses, never serves a stale body, when the service's ETags are not GitHub's", async () => {
    const clock = new FakeClock();
    let version = 1;
    // ETags made another way, and for the token: a validator of one token never matches another's.
    const service = await FakeService.start((request) => {
      const body = { version };
      const etag = `"${createHash("md5").update(`${request.headers.authorization}${version}`).digest("hex")}"`;
      // Both tokens belong to one user, so they share entries.
      if (request.path === "/user") return { status: 200, body: { login: "octo" } };
      if (request.headers["if-none-match"] === etag) return { status: 304, headers: { etag } };
      return { status: 200, headers: { etag }, body };
    }, clock);
    cleanups.push(() => service.close());
    const dir = tempDir();
    const client = (token: string) =>
      new ForgeClient({
        baseUrl: service.url,
        kind: "repository",
        clock,
        token: new Secret(token, "T"),
        cache: new DirectoryCache(dir),
      });
    expect(await client("a").get("/thing")).toEqual({ version: 1 });
    expect((await client("a").request("GET", "/thing")).fromCache).toBe(true);
    // Token b finds a's entry, whose ETag it cannot recompute: the service decides, and reads it in full.
    const other = await client("b").request("GET", "/thing");
    expect([other.fromCache, other.data]).toEqual([false, { version: 1 }]);
    version = 2;
    expect(await client("b").get("/thing")).toEqual({ version: 2 });
  });
});

describe("a cache directory stays bounded", () => {
  it("drops entries unused for the given days when opened, and keeps the rest", async () => {
    const dir = tempDir();
    const now = Date.parse("2026-03-01T00:00:00Z");
    const cache = new DirectoryCache(dir, { now: () => now });
    cache.set("old", { etag: '"1"', scheme: "opaque", body: Buffer.from("{}") });
    cache.set("recent", { etag: '"2"', scheme: "opaque", body: Buffer.from("{}") });
    const [oldFile, recentFile] = ["old", "recent"].map(
      (key) => `${createHash("sha256").update(key).digest("hex")}.json`,
    );
    const days = (n: number) => new Date(now - n * 86_400_000);
    utimesSync(join(dir, oldFile!), days(31), days(31));
    utimesSync(join(dir, recentFile!), days(29), days(29));
    const reopened = new DirectoryCache(dir, { now: () => now, maxUnusedDays: 30 });
    expect(reopened.get("old")).toBeUndefined();
    expect(reopened.get("recent")?.etag).toBe('"2"');
    expect(readdirSync(dir)).toEqual([recentFile]);
  });

  it("counts a hit as a use", async () => {
    const dir = tempDir();
    const cache = new DirectoryCache(dir);
    cache.set("k", { etag: '"1"', scheme: "opaque", body: Buffer.from("{}") });
    const [file] = readdirSync(dir);
    const old = new Date(Date.now() - 40 * 86_400_000);
    utimesSync(join(dir, file!), old, old);
    expect(cache.get("k")).toBeDefined();
    expect(new DirectoryCache(dir).get("k")).toBeDefined();
  });
});

describe("a token the service will not name", () => {
  it("files its entries under the URL: the next token is answered 304, and nothing grows", async () => {
    const clock = new FakeClock();
    let version = 1;
    // GitHub's ETags: made for the token of each request, over the body.
    const service = await FakeService.start((request): Reply => {
      if (request.path === "/user") {
        return { status: 403, body: { message: "Resource not accessible by integration" } };
      }
      const body = Buffer.from(JSON.stringify({ version }));
      const etag = githubValidator(
        {
          accept: String(request.headers.accept),
          authorization: String(request.headers.authorization),
        },
        body,
        undefined,
        false,
      );
      if (request.headers["if-none-match"] === etag) return { status: 304, headers: { etag } };
      return {
        status: 200,
        headers: { etag, "content-type": "application/json; charset=utf-8" },
        body: body.toString("utf8"),
      };
    }, clock);
    cleanups.push(() => service.close());
    const dir = tempDir();
    const read = async (token: string) =>
      new ForgeClient({
        baseUrl: service.url,
        kind: "repository",
        clock,
        token: new Secret(token, "T"),
        cache: new DirectoryCache(dir),
      }).request("GET", "/repos/acme/api");
    expect((await read("ghs_first")).fromCache).toBe(false);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    for (const token of ["ghs_first", "ghs_second"]) {
      const again = await read(token);
      expect([again.status, again.fromCache, again.data]).toEqual([304, true, { version: 1 }]);
    }
    version = 2;
    const changed = await read("ghs_third");
    expect([changed.fromCache, changed.data]).toEqual([false, { version: 2 }]);
    expect(readdirSync(dir)).toEqual(files);
    for (const file of files) expect(readFileSync(join(dir, file), "utf8")).not.toContain("ghs_");
  });

  it("keeps no entry whose ETag it cannot recompute for the next token", async () => {
    const clock = new FakeClock();
    const service = await FakeService.start(
      (request) =>
        request.path === "/user"
          ? { status: 403, body: { message: "Resource not accessible by integration" } }
          : { status: 200, headers: { etag: '"1"' }, body: { id: 1 } },
      clock,
    );
    cleanups.push(() => service.close());
    const dir = tempDir();
    for (const token of ["ghs_first", "ghs_second"]) {
      const client = new ForgeClient({
        baseUrl: service.url,
        kind: "repository",
        clock,
        token: new Secret(token, "T"),
        cache: new DirectoryCache(dir),
      });
      expect((await client.request("GET", "/repos/acme/api")).fromCache).toBe(false);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
