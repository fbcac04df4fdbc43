import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import {
  type ClientEvent,
  type ConditionalCache,
  DirectoryCache,
  ForgeClient,
  MemoryCache,
} from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService, type Handler } from "./fake-service.js";
import { conditional, pagedList } from "./list-service.js";

const TOKEN = "glpat-cachetoken-0001";
const items = Array.from({ length: 230 }, (_, i) => ({ id: i + 1 }));
let service: FakeService | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await service?.close();
  service = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-cache-"));
  dirs.push(dir);
  return dir;
}

const handler: Handler = (request) =>
  request.path === "/user"
    ? // Each token is its own user here, as the cache keys entries by the account.
      { status: 200, body: { login: `user-of-${String(request.headers.authorization)}` } }
    : request.path.startsWith("/gists")
      ? pagedList(items)(request)
      : conditional(request, { name: "main", protected: true });

async function clientWith(cache: ConditionalCache, token = TOKEN) {
  const clock = new FakeClock();
  service ??= await FakeService.start(handler, clock);
  const events: ClientEvent[] = [];
  const client = new ForgeClient({
    baseUrl: service.url,
    kind: "repository",
    token: new Secret(token, "T"),
    clock,
    cache,
    onEvent: (e) => events.push(e),
  });
  return { client, events };
}

describe("conditional requests", () => {
  it("answers a repeated GET from the memory cache on 304, without skipping the request", async () => {
    const cache = new MemoryCache();
    const { client, events } = await clientWith(cache);
    const first = await client.request("GET", "/repos/acme/api/branches/main");
    const second = await client.request("GET", "/repos/acme/api/branches/main");
    expect(first).toMatchObject({ status: 200, fromCache: false });
    expect(second).toMatchObject({ status: 304, fromCache: true, data: first.data });
    // The first request of a cached client asks whose the token is (GET /user), once.
    expect(service?.received.map((request) => request.path)).toEqual([
      "/user",
      "/repos/acme/api/branches/main",
      "/repos/acme/api/branches/main",
    ]);
    expect(service?.received[2]?.headers["if-none-match"]).toBe(first.headers.etag);
    expect(client.stats().notModified).toBe(1);
    expect(events.map((e) => e.type === "request" && e.fromCache)).toEqual([false, false, true]);
  });

  it("caches every page, so pagination still follows Link when pages answer 304", async () => {
    const cache = new MemoryCache();
    const { client } = await clientWith(cache);
    expect(await client.paginate("/gists")).toEqual(items);
    expect(await client.paginate("/gists")).toEqual(items);
    expect(client.stats()).toMatchObject({ requests: 7, notModified: 3 });
  });

  it("keeps entries in a directory between runs, keyed without the token", async () => {
    const dir = tempDir();
    const run1 = await clientWith(new DirectoryCache(dir));
    expect(await run1.client.paginate("/gists")).toEqual(items);
    const files = readdirSync(dir);
    expect(files).toHaveLength(3);
    expect(files.every((f) => /^[0-9a-f]{64}\.json$/.test(f))).toBe(true);
    for (const file of files) expect(readFileSync(join(dir, file), "utf8")).not.toContain(TOKEN);

    const run2 = await clientWith(new DirectoryCache(dir));
    expect(await run2.client.paginate("/gists")).toEqual(items);
    expect(run2.client.stats().notModified).toBe(3);
  });

  it("keeps no page of a listing read uncached, nor answers one from the cache", async () => {
    const dir = tempDir();
    const { client } = await clientWith(new DirectoryCache(dir));
    expect(await client.paginate("/gists", {}, { uncached: true })).toEqual(items);
    expect(readdirSync(dir).filter((file) => file.endsWith(".json"))).toEqual([]);
    expect(await client.paginate("/gists")).toEqual(items);
    expect(await client.paginate("/gists", {}, { uncached: true })).toEqual(items);
    // The uncached reads sent no validator, though the cache held every page: all came in full.
    expect(client.stats().notModified).toBe(0);
  });

  it("does not share entries between tokens", async () => {
    const dir = tempDir();
    await (await clientWith(new DirectoryCache(dir))).client.get("/repos/acme/api/branches/main");
    const other = await clientWith(new DirectoryCache(dir), "another-token");
    const response = await other.client.request("GET", "/repos/acme/api/branches/main");
    expect(response.fromCache).toBe(false);
    // The tokens belong to two users: the second finds no entry of the first.
    expect(service?.received.at(-1)?.headers["if-none-match"]).toBeUndefined();
  });

  it("treats an unreadable entry as a miss", async () => {
    const dir = tempDir();
    const cache = new DirectoryCache(dir);
    cache.set("k", { etag: '"1"', scheme: "opaque", body: Buffer.from('{"a":1}') });
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file ?? ""), '{"etag": "torn');
    expect(cache.get("k")).toBeUndefined();
    cache.set("k", {
      etag: '"2"',
      scheme: "opaque",
      body: Buffer.from("[1]"),
      link: '<x>; rel="next"',
    });
    expect(new DirectoryCache(dir).get("k")).toEqual({
      etag: '"2"',
      scheme: "opaque",
      body: Buffer.from("[1]"),
      link: '<x>; rel="next"',
    });
  });
});
