import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import {
  type ClientEvent,
  ForgeClient,
  type ForgeClientOptions,
  ForgeError,
} from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService, type Handler } from "./fake-service.js";

const TOKEN = "ghp_supersecretvalue123";
let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function setUp(handler: Handler, options: Partial<ForgeClientOptions> = {}) {
  const clock = new FakeClock();
  service = await FakeService.start(handler, clock);
  const events: ClientEvent[] = [];
  const client = new ForgeClient({
    baseUrl: service.url,
    kind: "repository",
    token: new Secret(TOKEN, "GITHUB_TOKEN"),
    clock,
    writeIntervalMs: 0,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { client, events, service };
}

describe("ForgeClient basics", () => {
  it("sends the token only as a Bearer Authorization header, with our user agent", async () => {
    const { client, service } = await setUp(() => ({ body: { login: "octo-admin" } }));
    expect(await client.get("/user")).toEqual({ login: "octo-admin" });
    const [received] = service.received;
    expect(received?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(received?.headers["user-agent"]).toMatch(/^forgeplan\/\d+\.\d+\.\d+/);
    expect(received?.headers.accept).toBe("application/vnd.github+json");
  });

  it("planning targets also send Authorization: Bearer", async () => {
    const { client, service } = await setUp(() => ({ body: [] }), { kind: "planning" });
    await client.get("/api/v4/projects/1/boards");
    expect(service.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(service.received[0]?.headers["private-token"]).toBeUndefined();
  });

  it("sends no Authorization header without a token", async () => {
    const { client, service } = await setUp(() => ({ body: [] }), { token: undefined });
    await client.get("/gists");
    expect(service.received[0]?.headers.authorization).toBeUndefined();
  });

  it("sends JSON bodies, revealing Secret values only on the wire", async () => {
    const { client, service } = await setUp((r) => ({ body: r.body }));
    const body = {
      config: { url: "https://hooks.example/x", secret: new Secret("s3cr3t", "ENV") },
    };
    expect(JSON.stringify(body)).not.toContain("s3cr3t");
    const response = await client.request("PATCH", "/repos/acme/api/hooks/1", { body });
    expect(service.received[0]?.body).toEqual({
      config: { url: "https://hooks.example/x", secret: "s3cr3t" },
    });
    expect(response.status).toBe(200);
  });

  it("maps an error to one line with the service's message and validation errors", async () => {
    const { client } = await setUp(() => ({
      status: 422,
      body: {
        message: "Validation Failed",
        documentation_url: "https://docs",
        errors: ["required_approving_review_count must be at most 6", "too many users"],
      },
    }));
    const error = await client
      .request("PUT", "/repos/acme/api/branches/main/protection", { body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgeError);
    const forge = error as ForgeError;
    expect(forge.message).toBe(
      "PUT /repos/acme/api/branches/main/protection → 422 Validation Failed: " +
        "required_approving_review_count must be at most 6; too many users",
    );
    expect(forge.status).toBe(422);
    expect(forge.method).toBe("PUT");
    expect(forge.path).toBe("/repos/acme/api/branches/main/protection");
    expect(forge.detail).toBe(
      "Validation Failed: required_approving_review_count must be at most 6; too many users",
    );
  });

  it("never lets the token reach errors or events", async () => {
    const { client, events } = await setUp((r) =>
      r.path.startsWith("/missing")
        ? { status: 401, body: { message: "Bad credentials", documentation_url: "x" } }
        : { status: 404, body: { message: "Not Found" } },
    );
    const errors = await Promise.all([
      client.get("/missing").catch((e: unknown) => e),
      client.get("/repos/acme/nope", { access_token: TOKEN }).catch((e: unknown) => e),
    ]);
    const printed = [
      ...errors.flatMap((e) => [String(e), inspect(e, { depth: 10 }), JSON.stringify(e)]),
      JSON.stringify(events),
      inspect(client, { depth: 10 }),
    ].join("\n");
    expect(printed).not.toContain(TOKEN);
    expect(String(errors[0])).toContain("GET /missing → 401 Bad credentials");
    expect(String(errors[1])).toContain("/repos/acme/nope?access_token=REDACTED → 404 Not Found");
  });

  it("distinguishes 404 answers by the service's message", async () => {
    const { client } = await setUp((r) =>
      r.path.includes("/branches/main/")
        ? { status: 404, body: { message: "Branch not protected" } }
        : r.path.includes("/branches/dev/")
          ? { status: 200, body: { url: "x" } }
          : { status: 404, body: { message: "Branch not found" } },
    );
    expect(await client.getOrUndefined("/repos/acme/api/branches/main/protection")).toEqual({
      found: false,
      status: 404,
      detail: "Branch not protected",
    });
    expect(await client.getOrUndefined("/repos/acme/api/branches/nope/protection")).toEqual({
      found: false,
      status: 404,
      detail: "Branch not found",
    });
    expect(await client.getOrUndefined("/repos/acme/api/branches/dev/protection")).toEqual({
      found: true,
      data: { url: "x" },
    });
  });

  it("reports every answer as a request event", async () => {
    const { client, events } = await setUp(() => ({ status: 204 }));
    const response = await client.request("DELETE", "/repos/acme/api/hooks/2");
    expect(response).toMatchObject({ status: 204, data: undefined, fromCache: false });
    expect(events).toEqual([
      {
        type: "request",
        method: "DELETE",
        path: "/repos/acme/api/hooks/2",
        status: 204,
        ms: 0,
        fromCache: false,
      },
    ]);
  });

  it("rejects options that cannot work", () => {
    expect(
      () => new ForgeClient({ baseUrl: "http://x", kind: "repository", concurrency: 101 }),
    ).toThrow("concurrency must be an integer from 1 to 100, got 101");
    expect(
      () => new ForgeClient({ baseUrl: "http://x", kind: "repository", shareOfBudget: 0 }),
    ).toThrow("share of the rate budget must be in (0, 1], got 0");
    const withCredentials = () =>
      new ForgeClient({ baseUrl: `https://x:${TOKEN}@ghe.example`, kind: "repository" });
    expect(withCredentials).toThrow(
      "the base URL must not carry credentials; pass the token separately",
    );
  });

  it("rejects response and page limits that cannot work", () => {
    expect(
      () => new ForgeClient({ baseUrl: "http://x", kind: "repository", maxResponseBytes: 0 }),
    ).toThrow("maximum response size must be a positive integer, got 0");
    expect(
      () => new ForgeClient({ baseUrl: "http://x", kind: "repository", maxPages: 1.5 }),
    ).toThrow("maximum page count must be a positive integer, got 1.5");
  });
});
