import { createPrivateKey } from "node:crypto";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { AppInstallationAuth } from "../../src/forge/app-auth.js";
import { appPrivateKey, signAppJwt } from "../../src/forge/app-jwt.js";
import { createAppRequest } from "../../src/forge/app-request.js";
import { type ClientEvent, ForgeClient, ForgeError } from "../../src/forge/client.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import { APP_ID, appKeys, appSeedFile, INSTALLATION_ID } from "../helpers/apps.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService } from "./fake-service.js";

const running: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

/** A sandbox and an App client sharing one virtual clock, so token lifetimes can be stepped through. */
async function setUp(options: { ttl?: number; installationId?: number; selected?: string[] } = {}) {
  const clock = new FakeClock(Date.parse("2026-03-01T12:00:00Z"));
  /** How far the service's clock runs ahead of the client's: clock skew. */
  const skew = { ms: 0 };
  const sb: RunningSandbox = await startSandbox({
    port: 0,
    seed: appSeedFile(appKeys().publicKey, {
      ...(options.selected !== undefined ? { selected: options.selected } : {}),
    }),
    now: () => clock.now() + skew.ms,
    tokenTtlSeconds: options.ttl ?? 3600,
  });
  running.push(sb);
  const tokens: number[] = [];
  const auth = new AppInstallationAuth({
    appId: APP_ID,
    privateKey: createPrivateKey(appKeys().privateKey),
    ...(options.installationId !== undefined
      ? { installationId: options.installationId }
      : { owner: "acme" }),
    request: createAppRequest({ baseUrl: sb.url, userAgent: "forgeplan-test" }),
    clock,
    onToken: (expiresAt) => tokens.push(expiresAt),
  });
  const events: ClientEvent[] = [];
  const client = new ForgeClient({
    baseUrl: sb.url,
    kind: "repository",
    auth,
    clock,
    writeIntervalMs: 0,
    onEvent: (event) => events.push(event),
  });
  return { sb, clock, skew, auth, client, tokens, events };
}

describe("the App's JWT", () => {
  it("is RS256 with iat back-dated a minute and exp 9 minutes ahead, and prints as sensitive", () => {
    const jwt = signAppJwt(APP_ID, createPrivateKey(appKeys().privateKey), 1_700_000_000_500);
    const [header, payload] = jwt
      .reveal()
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as unknown);
    expect(header).toEqual({ alg: "RS256", typ: "JWT" });
    expect(payload).toEqual({ iat: 1_699_999_940, exp: 1_700_000_540, iss: APP_ID });
    expect([String(jwt), JSON.stringify({ jwt }), inspect(jwt)].join()).not.toContain("eyJ");
  });

  it("refuses a key that is not an RSA private key, without quoting it", () => {
    const pem = new Secret("-----BEGIN NOTHING-----\nabc\n-----END NOTHING-----", "APP_KEY");
    expect(() => appPrivateKey(pem)).toThrow("APP_KEY does not hold a PEM private key");
    const oneLine = new Secret(appKeys().privateKey.replace(/\n/g, "\\n"), "APP_KEY");
    expect(appPrivateKey(oneLine).asymmetricKeyType).toBe("rsa");
  });
});

describe("an App installation as a target's credential", () => {
  it("finds the installation on the owner, mints a token and acts as the installation", async () => {
    const { client, auth, sb } = await setUp();
    const hooks = await client.get<unknown[]>("/repos/acme/api/hooks");
    expect(hooks).toHaveLength(2);
    expect(await auth.identity()).toBe(`app:${APP_ID}/installation:${INSTALLATION_ID}`);
    expect(auth.description).toBe(`installation ${INSTALLATION_ID} of App ${APP_ID} on acme`);
    expect(sb.stats().installation_tokens_issued).toBe(1);
  });

  it("writes as the App's bot, named once from GET /app, where GET /user is refused", async () => {
    const { client, sb } = await setUp();
    const before = sb.stats().requests_total;
    expect(await client.login()).toBe("settings-bot[bot]");
    expect(await client.login()).toBe("settings-bot[bot]");
    expect(sb.stats().requests_total - before).toBe(1);
    await expect(client.get("/user")).rejects.toThrow("403 Resource not accessible by integration");
  });

  it("refreshes the token before it expires, once for all requests that need it", async () => {
    const { client, clock, sb, tokens } = await setUp({
      ttl: 600,
      installationId: INSTALLATION_ID,
    });
    await client.get("/repos/acme/api/hooks");
    // A quarter of the lifetime before expiry (150 s of 600), the next requests wait for one refresh.
    clock.advance(451_000);
    const reads = Array.from({ length: 20 }, () => client.get("/repos/acme/api/hooks"));
    await Promise.all(reads);
    expect(sb.stats().installation_tokens_issued).toBe(2);
    expect(tokens).toHaveLength(2);
    expect(sb.stats().responses_by_status["401"]).toBeUndefined();
  });

  it("keeps using the token until then", async () => {
    const { client, clock, sb } = await setUp({ ttl: 600, installationId: INSTALLATION_ID });
    await client.get("/repos/acme/api/hooks");
    clock.advance(449_000);
    await client.get("/repos/acme/api/hooks");
    expect(sb.stats().installation_tokens_issued).toBe(1);
  });

  it("answers a 401 to an expired token with one refresh and repeats the request, writes too", async () => {
    const { client, clock, skew, sb, events } = await setUp({
      ttl: 600,
      installationId: INSTALLATION_ID,
    });
    await client.get("/repos/acme/api/hooks");
    // The service's clock runs past the token's expiry (600 s) while the client's says it has time
    // left (400 s in, before its refresh at 450 s): clock skew, small enough for the App's JWT.
    clock.advance(400_000);
    skew.ms = 250_000;
    const pending = [
      client.get("/repos/acme/api/hooks"),
      client.request("PATCH", "/repos/acme/api/hooks/2", { body: { active: false } }),
    ];
    await expect(Promise.all(pending)).resolves.toHaveLength(2);
    expect(sb.stats().responses_by_status["401"]).toBe(2);
    // Both requests saw the 401; one refresh served them both.
    expect(sb.stats().installation_tokens_issued).toBe(2);
    expect(events.some((event) => event.type === "reauthenticated")).toBe(true);
  });

  it("names the repository and the installation when the installation cannot see it", async () => {
    const { client } = await setUp({ selected: ["acme/api"] });
    const failure = await client.get("/repos/acme/web/hooks").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ForgeError);
    expect((failure as ForgeError).message).toBe(
      `GET /repos/acme/web/hooks → 404 Not Found (installation ${INSTALLATION_ID} of App ${APP_ID} on acme does not cover acme/web, or it does not exist)`,
    );
  });

  it("says when the App is not installed on the owner", async () => {
    const clock = new FakeClock();
    const sb = await startSandbox({
      port: 0,
      seed: appSeedFile(appKeys().publicKey),
      now: () => clock.now(),
    });
    running.push(sb);
    const auth = new AppInstallationAuth({
      appId: APP_ID,
      privateKey: createPrivateKey(appKeys().privateKey),
      owner: "octo-admin",
      request: createAppRequest({ baseUrl: sb.url, userAgent: "forgeplan-test" }),
      clock,
    });
    await expect(auth.authorization()).rejects.toThrow(
      `GET /users/octo-admin/installation → 404 App ${APP_ID} is not installed on octo-admin`,
    );
  });
});

describe("against a service that keeps refusing", () => {
  it("gives up after one renewal: a second 401 is the answer", async () => {
    const clock = new FakeClock();
    let minted = 0;
    const service = await FakeService.start((request) => {
      if (request.path.endsWith("/access_tokens")) {
        minted++;
        return {
          status: 201,
          body: {
            token: `ghs_${minted}`,
            expires_at: new Date(clock.now() + 3_600_000).toISOString(),
          },
        };
      }
      return { status: 401, body: { message: "Bad credentials" } };
    }, clock);
    running.push({ stop: () => service.close() });
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      clock,
      auth: new AppInstallationAuth({
        appId: APP_ID,
        privateKey: createPrivateKey(appKeys().privateKey),
        installationId: INSTALLATION_ID,
        request: createAppRequest({ baseUrl: service.url, userAgent: "forgeplan-test" }),
        clock,
      }),
    });
    await expect(client.get("/repos/acme/api/hooks")).rejects.toThrow(
      "GET /repos/acme/api/hooks → 401 Bad credentials",
    );
    expect(minted).toBe(2);
    const sent = service.received.filter((request) => !request.path.includes("/app/"));
    expect(sent.map((request) => request.headers.authorization)).toEqual([
      "Bearer ghs_1",
      "Bearer ghs_2",
    ]);
  });

  it("reports a refused JWT with the request and the App, never the JWT", async () => {
    const clock = new FakeClock();
    const service = await FakeService.start(
      () => ({ status: 401, body: { message: "A JSON web token could not be decoded" } }),
      clock,
    );
    running.push({ stop: () => service.close() });
    const auth = new AppInstallationAuth({
      appId: APP_ID,
      privateKey: createPrivateKey(appKeys().privateKey),
      installationId: INSTALLATION_ID,
      request: createAppRequest({ baseUrl: service.url, userAgent: "forgeplan-test" }),
      clock,
    });
    const failure = (await auth.authorization().catch((error: unknown) => error)) as ForgeError;
    expect(failure.message).toBe(
      `POST /app/installations/${INSTALLATION_ID}/access_tokens → 401 A JSON web token could not be decoded (signed as App ${APP_ID})`,
    );
    const jwt = String(service.received[0]?.headers.authorization).replace(/^Bearer /, "");
    expect(jwt.split(".")).toHaveLength(3);
    expect(inspect(failure)).not.toContain(jwt);
  });
});
