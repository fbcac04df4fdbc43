import * as z from "zod";
import { describe, expect, it } from "vitest";
import { ForgeError } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import { describeError } from "../../src/render/wording.js";
import { answer, clientOf, failure, hostile, json } from "./server.js";

/** Any answer that parses: these cases are about what comes before the shape check. */
const ANY = { name: "anything", schema: z.unknown() };

const PROTECTION = "/repos/acme/api/branches/main/protection";

describe("a success status whose answer is not JSON", () => {
  it("fails a read answered 200 text/html, and is never taken as absent", async () => {
    const proxy = await hostile((_req, res) =>
      answer(res, 200, { "content-type": "text/html" }, "<html>Bad gateway</html>"),
    );
    const { client } = clientOf(proxy.url);
    const error = await failure(client.getOrUndefined(PROTECTION));
    expect(error).toBeInstanceOf(ForgeError);
    expect(error.message).toBe(`GET ${PROTECTION} answered 200 with text/html, not JSON`);
    expect((error as ForgeError).status).toBe(200);

    const read = await new ResourceReader("github", client).getOrAbsent(PROTECTION, ANY);
    expect(read.kind).toBe("error");
    if (read.kind !== "error") return;
    expect(describeError(read.error)).toBe(
      `GET ${PROTECTION} answered 200 with text/html, not JSON`,
    );
  });

  it("fails a body that does not parse, one with no content type, and a read with no body", async () => {
    const proxy = await hostile((req, res) => {
      if (req.url === "/broken") answer(res, 200, json, '{"url": "https://x", "enforce_admins": ');
      else if (req.url === "/untyped") answer(res, 200, {}, '{"url":"x"}');
      else answer(res, 200, json);
    });
    const { client } = clientOf(proxy.url);
    expect((await failure(client.get("/broken"))).message).toBe(
      "GET /broken answered 200 with application/json that does not parse as JSON",
    );
    expect((await failure(client.get("/untyped"))).message).toBe(
      "GET /untyped answered 200 with no content type, not JSON",
    );
    expect((await failure(client.get("/empty"))).message).toBe(
      "GET /empty answered 200 with no body",
    );
    expect((await failure(client.paginate("/repos/acme/api/hooks"))).message).toBe(
      "GET /repos/acme/api/hooks?per_page=100 answered 200 with no body",
    );
  });

  it("reads JSON under GitHub's structured media type and a write answered with no body", async () => {
    const service = await hostile((req, res) =>
      req.method === "GET"
        ? answer(res, 200, { "content-type": "application/vnd.github+json" }, { id: 1 })
        : answer(res, 200, {}),
    );
    const { client } = clientOf(service.url);
    expect(await client.get("/repos/acme/api")).toEqual({ id: 1 });
    const written = await client.request("PATCH", "/repos/acme/api", { body: {} });
    expect(written.data).toBeUndefined();
  });

  it("fails a write answered 200 with HTML, as one that may have been applied", async () => {
    const proxy = await hostile((_req, res) =>
      answer(res, 200, { "content-type": "text/html" }, "<html>ok?</html>"),
    );
    const { client } = clientOf(proxy.url);
    const error = await failure(client.request("PUT", PROTECTION, { body: {} }));
    expect(error.message).toBe(`PUT ${PROTECTION} answered 200 with text/html, not JSON`);
    expect((error as ForgeError).mayHaveBeenApplied).toBe(true);
    expect(proxy.seen).toHaveLength(1);
  });

  it("fails a /rate_limit answer that is not a rate-limit overview", async () => {
    const service = await hostile((_req, res) => answer(res, 200, json, null));
    const { client } = clientOf(service.url);
    expect((await failure(client.prime())).message).toBe(
      'GET /rate_limit answered 200 with a body that has no "resources" object',
    );
  });
});
