import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Redactor } from "../../src/core/redact.js";
import { Secret } from "../../src/core/secret.js";
import { DirectoryCache, ForgeClient } from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService } from "./fake-service.js";
import { conditional } from "./list-service.js";

/** A hook whose URL carries a token interpolated from the environment, as GitHub lists it. */
const COLLECTOR_TOKEN = "ct_9f2e7Collector+/=";
const hooks = [
  {
    id: 1,
    config: { url: `https://collector.example/h?t=${encodeURIComponent(COLLECTOR_TOKEN)}` },
    note: `raw ${COLLECTOR_TOKEN}`,
  },
];

let service: FakeService | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await service?.close();
  service = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function redactorWith(value: string | undefined): Redactor {
  const redactor = new Redactor();
  if (value !== undefined) redactor.add(value, "COLLECTOR_TOKEN");
  return redactor;
}

async function listHooks(cache: DirectoryCache) {
  const clock = new FakeClock();
  // The cache keys entries by the account the token acts as, which GET /user names.
  service ??= await FakeService.start(
    (request) =>
      request.path === "/user"
        ? { status: 200, body: { login: "octo-admin" } }
        : conditional(request, hooks),
    clock,
  );
  const client = new ForgeClient({
    baseUrl: service.url,
    kind: "repository",
    token: new Secret("test-token", "T"),
    clock,
    cache,
  });
  const response = await client.request("GET", "/repos/acme/api/hooks");
  return { response, sent: service.received[service.received.length - 1]! };
}

function cacheFiles(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => readFileSync(join(dir, name), "utf8"))
    .join("\n");
}

describe("the directory cache with sensitive values", () => {
  it("writes no value in plain text, and answers the next run from the sealed entry on 304", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forgeplan-cache-"));
    dirs.push(dir);
    await listHooks(new DirectoryCache(dir, { redactor: redactorWith(COLLECTOR_TOKEN) }));
    const written = cacheFiles(dir);
    expect(written).toContain("(sensitive:COLLECTOR_TOKEN:");
    for (const form of [COLLECTOR_TOKEN, encodeURIComponent(COLLECTOR_TOKEN), "ct_9f2e7"]) {
      expect(written).not.toContain(form);
    }

    const next = await listHooks(
      new DirectoryCache(dir, { redactor: redactorWith(COLLECTOR_TOKEN) }),
    );
    expect(next.sent.headers["if-none-match"]).toBeDefined();
    expect(next.response).toMatchObject({ status: 304, fromCache: true, data: hooks });
  });

  it("treats the entry as a miss when the variable's value changed, or is not known", async () => {
    for (const now of ["ct_rotated-value-1", undefined]) {
      const dir = mkdtempSync(join(tmpdir(), "forgeplan-cache-"));
      dirs.push(dir);
      await listHooks(new DirectoryCache(dir, { redactor: redactorWith(COLLECTOR_TOKEN) }));
      const run = await listHooks(new DirectoryCache(dir, { redactor: redactorWith(now) }));
      expect(run.sent.headers["if-none-match"]).toBeUndefined();
      expect(run.response).toMatchObject({ status: 200, fromCache: false, data: hooks });
    }
  });
});
